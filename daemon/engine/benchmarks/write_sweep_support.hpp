// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The dd study's write block-size sweep, shared by the filesystem
// `write-sweep` (new files) and the device `device-write-sweep` (the raw
// device): the same parameters, the same repetitions per size and the same
// statistics and series. Only how one repetition writes differs.

#include "../benchmark_support.hpp"
#include "file_support.hpp"

#include <functional>

namespace diskbench::engine::benchmarks {

// `min_block`, `max_block`, `amount_per_size`, `repetitions` (at least 9,
// as the dd study asks); `amount_help` says how the amount is scaled.
std::vector<ParamSpec> write_sweep_params(std::string_view amount_help);

struct WriteSweepPlan {
    std::vector<std::uint32_t> sizes; // powers of two, ascending
    std::uint64_t amount = 0;         // bytes per repetition, a multiple of every size
    std::uint64_t repetitions = 0;
};

// Checks the parameters: powers of two, the amount fitted to `room`
// (scaled with a note ending in `where` when not given), the largest block
// to the amount, and block sizes below `alignment` left out with a note.
WriteSweepPlan plan_write_sweep(const ParameterSet& params, Recorder& recorder, std::uint64_t room,
                                std::string_view where);
// Leaves out the sizes that are not multiples of `alignment`, with a note;
// ParameterError("max_block") when none is left. `why` is one of these
// two (each has its own catalogue messages, the note's and the failure's).
inline constexpr std::string_view device_logical_block = "the device's logical block";
inline constexpr std::string_view direct_io_alignment = "this filesystem's direct I/O alignment";
void keep_aligned_sizes(WriteSweepPlan& plan, Recorder& recorder, std::uint32_t alignment, std::string_view why);

// One timed repetition: writes `pass` (`pass.size` bytes of `pass.block`-
// byte writes, data from `pass.seed`, which differs per repetition) with
// the sync inside the timing, and moves progress as `pass` says. A
// cancelled result ends the sweep.
using WriteRepetition = std::function<PassResult(const PassSpec& pass)>;

// Runs every repetition of every size, records the series (bars
// "throughput" = mean, lines/dots "throughput-median", "-min", "-max" and
// every "repetitions" dot; x = block size in bytes, y = MB/s) and the
// summary (writes, bytes, bytes_per_size, best_block_size,
// throughput_max_mb_s / throughput_min_mb_s = best and worst median).
void run_write_sweep(Recorder& recorder, Result& result, const CancelToken& cancel, const WriteSweepPlan& plan,
                     std::uint64_t seed, const WriteRepetition& repetition);

} // namespace diskbench::engine::benchmarks
