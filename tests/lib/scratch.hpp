// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Test fixtures that own real files and loop devices and always give them
// back: destructors run when a Catch2 assertion throws, and loop devices are
// created with autoclear so the kernel detaches them even if the test
// process dies.

#include <cstdint>
#include <filesystem>
#include <string>

namespace diskbench::testing {

// A fresh directory under $TMPDIR (or /var/tmp: /tmp may be tmpfs, which
// the loop tests do not want), removed with its contents.
class ScratchDir {
public:
    // `parent`: where to make it, when a test needs a particular
    // filesystem (/dev/shm for a loop device no other disk I/O disturbs).
    explicit ScratchDir(const std::filesystem::path& parent = {});
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

// Writes `size` bytes of seeded pseudo-random data (no holes: sparse files
// hide alignment bugs) and returns the path.
std::filesystem::path make_data_file(const ScratchDir& dir, const std::string& name, std::uint64_t size,
                                     std::uint64_t seed = 1);

// FNV-1a over the whole file or device, read through the page cache; to
// prove a benchmark changed nothing.
std::uint64_t checksum(const std::filesystem::path& path);

// A loop device over `backing`, attached with direct I/O (like
// `losetup --direct-io=on`; Buffered: without, so the backing file's page
// cache answers) and the given logical sector size, detached on
// destruction.
class LoopDevice {
public:
    enum class Backing { Direct, Buffered };
    explicit LoopDevice(const std::filesystem::path& backing, std::uint32_t sector_size = 512,
                        bool read_only = false, Backing mode = Backing::Direct);
    ~LoopDevice();
    LoopDevice(const LoopDevice&) = delete;
    LoopDevice& operator=(const LoopDevice&) = delete;
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    // Whether the kernel really does direct I/O to the backing file.
    [[nodiscard]] bool direct_io() const;
    // Waits (up to 10 s) until no one else reads the new device: where
    // udevd runs, it and udisksd probe every new loop device, and a test
    // that counts the device's requests must not count theirs.
    void wait_until_idle() const;
    // Read requests the device has completed (/sys/block/NAME/stat).
    [[nodiscard]] std::uint64_t completed_reads() const;
    // Bytes the device has read and written so far (/sys/block/NAME/stat).
    [[nodiscard]] std::uint64_t bytes_read() const;
    [[nodiscard]] std::uint64_t bytes_written() const;
    // Flush requests the device has completed (/sys/block/NAME/stat's
    // 16th field, kernels since 5.5): one per fdatasync of the device, as
    // a loop device has a write cache when its backing file can be synced.
    [[nodiscard]] std::uint64_t flushes() const;

private:
    std::string path_;
    int fd_ = -1;
};

} // namespace diskbench::testing
