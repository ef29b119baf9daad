// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which block device a benchmark's I/O lands on, for the block-layer
// cross-check: the device itself, the device under a file's or folder's
// filesystem, and for a loop device also the device under its backing file.

#include "loop_identity.hpp"
#include "sysfs.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace diskbench::engine::storage {

struct CheckedDevice {
    std::filesystem::path directory; // in sysfs
    std::string name;                // "loop0", "nvme0n1p3"
};

struct LoopFacts {
    std::string backing_file;        // as the kernel names it: text, not the file (loop_identity.hpp)
    std::optional<FileIdentity> backing; // the file the driver holds; nullopt when not told
    bool direct_io = false;          // loop/dio: reads bypass the backing file's page cache
    std::string backing_filesystem;  // the backing file's filesystem type ("ext4", "tmpfs"), if known
    // Without direct I/O: the most of the backing file the page cache held
    // at the start of a measured phase (0..1), when it could be told.
    std::optional<double> cached_share;
};

struct CheckedDevices {
    std::optional<CheckedDevice> device;
    // Set when `device` is a loop device.
    std::optional<LoopFacts> loop;
    // The device under the loop's backing file, when it has one.
    std::optional<CheckedDevice> backing;
    // Why `device` is missing: "tmpfs", "fuse.sshfs", "nfs4", ...
    std::string no_device_reason;
};

// For an fd the benchmark reads or writes: a block device is checked
// itself; a regular file or directory by the device under its filesystem
// (st_dev, or the mount's source when st_dev is not a block device, as on
// btrfs).
CheckedDevices checked_devices(const Sysfs& sysfs, int fd);
// The same from a device number already known (tests, and the daemon).
CheckedDevices checked_devices_of_block(const Sysfs& sysfs, dev_t device);
// For a file or folder on the filesystem whose st_dev is `file_device`.
CheckedDevices checked_devices_of_filesystem(const Sysfs& sysfs, dev_t file_device);

// The filesystem type of the mount a file lies on (mountinfo), or "" when unknown.
std::string filesystem_type_of(const Sysfs& sysfs, dev_t file_device);

} // namespace diskbench::engine::storage
