// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../base/unique_fd.hpp"

#include <chrono>
#include <cstdint>
#include <string>

namespace diskbench::engine {

// What a benchmark reads from (or, for the filesystem benchmarks' scratch
// files, writes to): an fd, normally opened with O_DIRECT, plus the facts
// the I/O needs. `size` is rounded down to whole logical blocks, so every
// aligned request inside it is a full, valid direct read.
struct Target {
    UniqueFd fd;
    std::string name;            // for messages and results only
    std::uint64_t size = 0;      // usable bytes
    std::uint32_t logical_block = 512;  // smallest direct-I/O unit (offset and length)
    std::uint32_t physical_block = 512; // device's physical sector, >= logical
    std::uint32_t memory_alignment = 4096; // buffer address alignment for direct I/O
    bool is_block_device = false;
};

// The one way the engine gets a Target from a path: opens it read-only with
// O_DIRECT and probes it. Refuses, with a TargetError saying why, anything
// that is not a block device or regular file, is empty, or does not accept
// O_DIRECT.
Target open_target_for_read(const std::string& path);

// The same for the device write benchmarks: opens `path` read-write with
// O_DIRECT and, for a block device, O_EXCL, so that the kernel refuses
// (DeviceBusyError) a device that is mounted or otherwise claimed, and
// nobody can mount or claim it while the Target is open; it also takes the
// device's BSD lock (flock LOCK_EX), so udev and partitioning tools keep
// off, and refuses (DeviceBusyError) a device another program has locked.
// A program that opens the device plainly can still write to it: nothing
// in the kernel stops that. Refuses what
// open_target_for_read refuses, the same way. A regular file is opened
// read-write without O_EXCL (meaningless there); it is for tests and
// diskbench-engine.
//
// A device someone wrote a moment ago is claimed or locked by udev for a
// moment (see open_target in target.cpp): the open tries again for up to
// `patience` before it refuses. 0 refuses at once: the daemon, which must
// not wait on its bus thread, tries again from its loop instead.
inline constexpr std::chrono::milliseconds default_busy_patience { 1000 };
Target open_target_for_write(const std::string& path,
                             std::chrono::milliseconds patience = default_busy_patience);

// Adopts an fd that someone else opened (the daemon gets one from udisks'
// OpenForBenchmark). The fd must already have O_DIRECT set; it is probed the
// same way and refused the same way.
Target target_from_fd(UniqueFd fd, std::string name);

// A file the engine made to write and then read (the filesystem
// benchmarks' scratch files): `fd` open read-write, with O_DIRECT or
// without. With O_DIRECT the alignment is probed as above; without, any
// offset works (logical_block 1). `size` is what the benchmark will write:
// the file may still be empty.
Target target_for_scratch_file(UniqueFd fd, std::string name, std::uint64_t size);

} // namespace diskbench::engine
