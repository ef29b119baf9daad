// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace diskbench::engine {

// What the filesystem benchmarks need to know about the filesystem under a
// directory before they write: how much they may write and what to call it.
struct FilesystemFacts {
    std::string type;                 // "ext2/ext3/ext4", "tmpfs", ... or the magic in hex
    std::uint64_t total_bytes = 0;
    std::uint64_t available_bytes = 0; // for unprivileged users (root's reserve excluded)
    std::uint32_t block_size = 0;      // the filesystem's preferred I/O size
    // Inodes (statvfs f_files, f_favail): what a benchmark that makes many
    // files runs out of first. 0 total: the filesystem has no fixed number
    // (btrfs, and others that allocate inodes as they go).
    std::uint64_t total_inodes = 0;
    std::uint64_t available_inodes = 0;
    // proc, sysfs, cgroup and friends: files there are kernel interfaces,
    // not storage; a benchmark has no business creating anything in them.
    bool pseudo = false;
};

// fstatfs()/fstatvfs() of any fd on the filesystem; reads, never writes.
// Throws IoError.
FilesystemFacts filesystem_facts(int fd);

// Bytes a benchmark may fill: the free space less a tenth, which stays for
// the filesystem's own metadata (extent trees, journal) and for everyone
// else, so a benchmark that fits does not run the filesystem full.
std::uint64_t usable_space(const FilesystemFacts& facts) noexcept;

} // namespace diskbench::engine
