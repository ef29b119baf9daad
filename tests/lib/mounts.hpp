// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Real filesystems for the filesystem benchmarks' tests: ext4 made with
// mkfs.ext4 on a loop device the test attaches, and tmpfs. Both are
// unmounted (lazily if busy) and the loop device detached (autoclear) when
// the object goes, also when an assertion throws; the mounts live in a mount
// namespace of the test process's own, so even a crash leaves none behind.

#include "scratch.hpp"

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace diskbench::testing {

class MountedFilesystem {
public:
    // Ext4: mkfs.ext4 over a loop device on a file of `size` bytes of data,
    // with about `inodes` inodes when not 0 (mkfs.ext4 -N; it rounds up to
    // fill its inode tables).
    // `backing`: how the loop device under ext4 reaches its file (Buffered:
    // the backing file's page cache answers, as the cross-check tests want).
    enum class Kind { Ext4, Tmpfs };
    MountedFilesystem(Kind kind, std::uint64_t size, std::uint64_t inodes = 0,
                      LoopDevice::Backing backing = LoopDevice::Backing::Direct);
    ~MountedFilesystem();
    MountedFilesystem(const MountedFilesystem&) = delete;
    MountedFilesystem& operator=(const MountedFilesystem&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const noexcept { return mount_point_; }
    [[nodiscard]] const std::string& type() const noexcept { return type_; }
    // The loop device under an ext4 filesystem (null for tmpfs).
    [[nodiscard]] const LoopDevice* device() const noexcept { return loop_.get(); }

private:
    ScratchDir dir_;                    // holds the backing file and the mount point
    std::unique_ptr<LoopDevice> loop_;  // destroyed after the unmount
    std::filesystem::path mount_point_;
    std::string type_;
    bool mounted_ = false;
};

// A block device's filesystem mounted at a new directory `mount_point`
// (in the test's own mount namespace, like MountedFilesystem) until the
// object goes.
class DeviceMount {
public:
    DeviceMount(const std::string& device, std::filesystem::path mount_point, const std::string& type);
    ~DeviceMount();
    DeviceMount(const DeviceMount&) = delete;
    DeviceMount& operator=(const DeviceMount&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const noexcept { return mount_point_; }

private:
    std::filesystem::path mount_point_;
};

// Runs a program (no shell) and throws unless it exits with 0.
void run_program(const std::vector<std::string>& argv);

// A directory `name` in `parent` owned by uid:gid with `mode`.
std::filesystem::path make_owned_directory(const std::filesystem::path& parent, const std::string& name, uid_t uid,
                                           gid_t gid, mode_t mode);

// Every path below `root` (not following symlinks) with its type, owner,
// size and, for regular files, an FNV-1a checksum: to prove nothing
// outside a directory was created, read into, changed or deleted.
std::string tree_snapshot(const std::filesystem::path& root);

} // namespace diskbench::testing
