// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

// The benchmark kinds diskbenchd runs (Manager.ListBenchmarks, the "kind"
// of StartBenchmark and of result files), by name, and the few facts about
// them that a client cannot learn from the bus.
//
// What the daemon publishes, clients take from the bus, not from here:
// how a kind is started (ListBenchmarks' target: "device", "device-write",
// "directory"), its parameters and their defaults. This header is for
// naming a kind in code (which page draws it how) and for what the bus does
// not say: that a raw write kind has no "keep the data" mode.
namespace diskbench::contract::kinds {

// Read-only device benchmarks.
inline constexpr std::string_view overview = "overview";
inline constexpr std::string_view seek = "seek";
inline constexpr std::string_view random = "random";
inline constexpr std::string_view sequential = "sequential";
inline constexpr std::string_view surface = "surface";
inline constexpr std::string_view block = "block";
inline constexpr std::string_view profile = "profile";
inline constexpr std::string_view qd_sweep = "qd-sweep";
inline constexpr std::string_view burst = "burst";
// Raw device writes (target "device-write": mode and confirm options).
inline constexpr std::string_view device_write = "device-write";
inline constexpr std::string_view device_write_sweep = "device-write-sweep";
inline constexpr std::string_view sustained_write = "sustained-write";
inline constexpr std::string_view steady_state = "steady-state";
inline constexpr std::string_view verify_capacity = "verify-capacity";
inline constexpr std::string_view burn_in = "burn-in";
// Filesystem benchmarks in a folder (target "directory").
inline constexpr std::string_view file_rw = "file-rw";
inline constexpr std::string_view write_sweep = "write-sweep";
inline constexpr std::string_view structure = "structure";
inline constexpr std::string_view small_files = "small-files";
inline constexpr std::string_view mixed_load = "mixed-load";
inline constexpr std::string_view file_profile = "file-profile";
inline constexpr std::string_view file_qd_sweep = "file-qd-sweep";

// Not a daemon kind: the result file of a set of runs one after another
// on one device (SavedResult::members), which the clients run and keep.
inline constexpr std::string_view run_set = "run-set";

inline constexpr std::array all { overview,     seek,         random,         sequential,         surface,         block,
                                  profile,      qd_sweep,       burst,          device_write,       device_write_sweep,
                                  sustained_write, steady_state,   verify_capacity, burn_in, file_rw,     write_sweep,        structure,       small_files,
                                  mixed_load,   file_profile,   file_qd_sweep };

inline constexpr std::array raw_writes { device_write, device_write_sweep, sustained_write, steady_state,
                                         verify_capacity, burn_in };
inline constexpr std::array folder_kinds { file_rw,    write_sweep,  structure,
                                           small_files, mixed_load, file_profile, file_qd_sweep };
// The raw writes that put new data over their whole range and so cannot
// keep it: mode must be "destroy" (their published default is still
// "preserve", so the daemon refuses a run nobody confirmed).
inline constexpr std::array erase_only { device_write_sweep, sustained_write, steady_state, verify_capacity,
                                         burn_in };

constexpr bool writes_device(std::string_view kind) noexcept
{
    return std::find(raw_writes.begin(), raw_writes.end(), kind) != raw_writes.end();
}

constexpr bool erases_only(std::string_view kind) noexcept
{
    return std::find(erase_only.begin(), erase_only.end(), kind) != erase_only.end();
}

// The parameter that makes a read kind write, "" for the others: the
// overview's opt-in write rate (`write`, a boolean, reads and then writes)
// and the queue-depth sweep's writes (`writes`, a boolean, writes instead
// of reads), both in preserve mode; the Profiles' write column (`write`,
// each test read and then written, in the mode its `mode` says). A run with it true is a device write in
// every respect; what never writes (a set of runs, the scheduled runs)
// keeps it false.
constexpr std::string_view writes_when(std::string_view kind) noexcept
{
    if (kind == overview)
        return "write";
    if (kind == qd_sweep)
        return "writes";
    if (kind == profile)
        return "write";
    return {};
}

constexpr bool in_folder(std::string_view kind) noexcept
{
    return std::find(folder_kinds.begin(), folder_kinds.end(), kind) != folder_kinds.end();
}

// How many block sizes a power-of-two sweep (block, random, write-sweep,
// device-write-sweep) measures from `smallest` to `largest`: every power of
// two between them, both ends included. Both must be powers of two (the
// daemon refuses others); 0 when smallest is 0 or above largest.
constexpr std::size_t sweep_size_count(std::uint64_t smallest, std::uint64_t largest) noexcept
{
    if (smallest == 0 || smallest > largest)
        return 0;
    std::size_t count = 0;
    for (std::uint64_t size = smallest; size != 0 && size <= largest; size *= 2)
        ++count;
    return count;
}

// The most reads one run keeps in flight, and their buffers: the daemon
// refuses more (a root daemon's threads and memory), engine's
// check_in_flight().
inline constexpr std::uint64_t max_reads_in_flight = 1024;
inline constexpr std::uint64_t max_in_flight_bytes = 1ULL << 30;

// The most a preserve-mode write keeps in memory at once: its copy of the
// device's data it writes back (a batch of the device write benchmarks).
inline constexpr std::uint64_t max_preserved_bytes = 64ULL << 20;

// Whether a cell of the queue-depth sweep's grid (qd-sweep, file-qd-sweep)
// runs: `threads` x `depth` requests of `block` in flight within the limits
// above, and, for a device's writes in preserve mode (`preserve`), their
// copies within max_preserved_bytes. The grid goes to 64 threads and a
// queue depth of 1024 (tiobench's matrix and beyond); the cells past the
// limits are left out (a note says how many), not refused.
constexpr bool qd_sweep_cell_runs(std::uint64_t threads, std::uint64_t depth, std::uint64_t block,
                                  bool preserve = false) noexcept
{
    const std::uint64_t in_flight = threads * depth;
    return in_flight <= max_reads_in_flight && in_flight * block <= max_in_flight_bytes
        && (!preserve || in_flight * block <= max_preserved_bytes);
}

} // namespace diskbench::contract::kinds
