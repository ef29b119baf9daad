// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The layers between a benchmark and the hardware, top first: for a folder
// its filesystem with the mount options that change results, then the
// device chain (dm-crypt, LVM, md, a loop device and its backing file's
// filesystem and device, partitions, the disk) and the link at the bottom.

#include "../results/recorder.hpp"
#include "../results/result.hpp"
#include "sysfs.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace diskbench::engine::storage {

struct Stack {
    std::vector<std::string> layers; // "ext4 (noatime)", "dm-crypt", "nvme0n1p3", "nvme0n1"
    std::string link;                // "PCIe 3.0 x4", or "" when unknown
    // The filesystem (or one on the path) compresses what it stores:
    // "btrfs compress=zstd:3".
    std::string compression;

    // "ext4 (noatime) → dm-crypt → nvme0n1p3 → nvme0n1, PCIe 3.0 x4"
    [[nodiscard]] std::string line() const;
};

// A block device's chain, from its sysfs directory down.
Stack device_stack(const Sysfs& sysfs, const std::filesystem::path& block_directory);
// A folder's: its filesystem (mountinfo of `file_device`, the folder's
// st_dev), then its device's chain when it has one.
Stack filesystem_stack(const Sysfs& sysfs, dev_t file_device);

// The mount options among `options` that change what a benchmark measures
// (sync, noatime, compress=..., data=journal, nobarrier, ...), in order.
std::vector<std::string> result_affecting_options(const std::string& type, const std::string& options);

// The note a result with compression on its path carries.
contract::Message compression_note(const std::string& compression);

// The stack of what `fd` reads or writes (a block device, or a file or
// folder on a filesystem).
Stack stack_of(const Sysfs& sysfs, int fd);
// Puts it in a result: summary "stack" (the line), the compression note.
void report_stack(const Stack& stack, Result& result, Recorder& recorder);

} // namespace diskbench::engine::storage
