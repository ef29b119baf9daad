// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading what the kernel says about block devices: /sys/dev/block/M:m and
// what hangs off it (stat counters, partitions, loop, holders, slaves), and
// /proc/self/mountinfo for the device under a folder.

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::engine::storage {

// What the block layer counted for one device since boot (sectors of 512
// bytes whatever the device's block size, as the kernel documents).
struct BlockCounters {
    std::uint64_t read_bytes = 0;
    std::uint64_t write_bytes = 0;
};

// Parses the content of a block device's `stat` file; nullopt when it is
// not one (fewer than 7 numbers).
std::optional<BlockCounters> parse_block_stat(const std::string& text);

class Sysfs {
public:
    // `root` is where sys/ and proc/ are looked up: "/" in the daemon and
    // the engine. Anything else is only for tests, which build a tree of
    // hardware this machine lacks (NVMe, SATA, USB, dm-crypt, md) in a
    // temp dir and point the reader at it.
    explicit Sysfs(std::filesystem::path root = "/");

    // The device's directory under sys/devices (symlinks resolved), or
    // nullopt when the kernel has no block device of that number.
    [[nodiscard]] std::optional<std::filesystem::path> block_directory(dev_t device) const;
    [[nodiscard]] std::optional<BlockCounters> counters(const std::filesystem::path& block_directory) const;

    // The first line of a file without its newline; empty when unreadable.
    [[nodiscard]] static std::string read_line(const std::filesystem::path& file);
    // The entries of a directory (names only, sorted); empty when none.
    [[nodiscard]] static std::vector<std::string> entries(const std::filesystem::path& directory);

    // The mount source and filesystem type of the mount whose device number
    // is `device` (mountinfo's third field), for filesystems like btrfs
    // whose st_dev is not the block device's.
    struct Mount {
        std::string source;
        std::string type;
        std::string options; // the mount's and the superblock's, comma-separated
        std::string mount_point;
    };
    [[nodiscard]] std::optional<Mount> mount_of(dev_t device) const;

    // The block device a mount's source names ("/dev/sda2", "/dev/dm-1",
    // "/dev/mapper/luks-…"), found by its kernel or device-mapper name in
    // sysfs, never by resolving the path: a mount's source is text its
    // mounter chose (a FUSE user writes anything there), and resolving it
    // as root could walk into their filesystem, or one that hangs.
    [[nodiscard]] std::optional<dev_t> device_named(const std::string& source) const;

    // The block device a filesystem lives on: its st_dev `file_device` when
    // that is one, else the device its mount's source names (btrfs and
    // others hand out anonymous device numbers); nullopt for tmpfs, FUSE,
    // NFS and the like.
    [[nodiscard]] std::optional<std::filesystem::path> filesystem_device(dev_t file_device) const;

    // The device number in a block device directory's "dev" file.
    [[nodiscard]] static std::optional<dev_t> device_number(const std::filesystem::path& block_directory);

    [[nodiscard]] const std::filesystem::path& root() const noexcept { return root_; }

private:
    std::filesystem::path root_;
};

// The kernel's name of a block device directory ("nvme0n1p3"), and whether
// it is a partition (its parent directory is then the whole disk).
std::string block_name(const std::filesystem::path& block_directory);
bool is_partition(const std::filesystem::path& block_directory);
// One path component that names nothing but itself (not "", "." or ".."):
// what a kernel device name must be before it is put in a path.
bool plain_name(const std::string& name);

} // namespace diskbench::engine::storage
