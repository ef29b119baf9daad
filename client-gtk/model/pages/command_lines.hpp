// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace diskbench::client {

// What the kinds' info popovers (pages/<kind>.cpp) share: sizes in words,
// and the pieces of the fio and dd command lines that measure what a run
// measures, so a user can check our figures with a tool they trust.

// "4 KiB", "1 GiB": a size in the user's words.
std::string bytes_text(std::int64_t value);
// fio's and dd's size suffixes are powers of two: 4k = 4096, 1m = 1 MiB.
std::string fio_size(std::int64_t value);

// How fio flushes a device write test as the engine does: once at the end
// ("--end_fsync=1"), or, where sync_every asks for a flush each that many
// bytes, every so many writes of `block` ("--fdatasync=N": fio counts
// writes).
std::string fio_sync_option(std::int64_t sync_every, std::int64_t block);
// "fio --name=NAME --filename=NODE --readonly --direct=1 --ioengine=io_uring":
// a read-only fio run on the device.
std::string fio_base(const std::string& name, const std::string& node);
// A path for a shell command line: quoted when it needs it.
std::string shell_quoted(const std::string& path);

// The sizes of a doubling sweep from LOW to HIGH, at most 64 of them:
// parameters come from the daemon, and a bad value must not spin the GTK
// thread (or overflow).
std::vector<std::int64_t> doublings(std::int64_t low, std::int64_t high);
// The block size KEY of P (FALLBACK when unset); 0 means the device's
// logical block (512 when it is not known).
std::int64_t block_or_logical(const SavedValueMap& p, const char* key, std::int64_t fallback,
                              std::uint32_t logical_block_size);

// A test in the notation of CrystalDiskMark and KDiskMark ("SEQ1M Q8T1")
// as fio's options take it: "1m", 8, 1; its name without spaces.
struct FioTest {
    bool sequential = false;
    std::string size;
    int depth = 1, threads = 1;
    std::string name;
};
FioTest fio_test(const std::string& test);

// The dd study's sweep: one dd per block size (min_block to max_block of
// P), each run `repetitions` times, writing to OUTPUT; EXTRA ends each line.
std::vector<std::string> dd_sweep(const SavedValueMap& p, const std::string& output, const std::string& extra);

} // namespace diskbench::client
