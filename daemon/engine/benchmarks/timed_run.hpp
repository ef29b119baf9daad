// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The measurement the Profiles and QD-sweep benchmarks share, shaped like
// fio's time_based job with ramp_time: a warm-up whose figures are thrown
// away, then a run bounded by time (and optionally bytes).

#include "../benchmark_support.hpp"
#include "profile_tests.hpp"

#include <functional>

namespace diskbench::engine::benchmarks {

struct TimedRunPlan {
    ProfileTest test;
    std::uint64_t region = 0;       // bytes from offset 0 the reads stay in
    std::uint64_t warmup_ns = 0;
    std::uint64_t duration_ns = 0;
    std::uint64_t max_bytes = 0;    // 0: bounded by time only
    std::uint64_t seed = 0;
    double progress_before = 0;     // share of the whole benchmark done before this run
    double progress_share = 0;      // share this run (warm-up included) covers
    // Reads unless set (file-profile): writes send pseudo-random data from
    // data_seed, or `buffers` (IoRunSpec); Mixed marks writes with
    // mix_read_percent of the requests left as reads.
    IoDirection direction = IoDirection::Read;
    unsigned mix_read_percent = 100;
    std::uint64_t data_seed = 0;
    const RequestBuffers* buffers = nullptr;
    // Also told of every measured completion (not of the warm-up's).
    CompletionObserver* observer = nullptr;
    // Called between the warm-up and the measured run (not timed): a
    // folder's writes sync the warm-up's there.
    std::function<void()> after_warmup;
};

// Empty stats with cancelled set when cancelled during warm-up.
IoRunStats timed_run(BenchmarkContext& ctx, const TimedRunPlan& plan);

// The shared `duration_s`, `warmup_s`, `max_bytes` parameters.
std::vector<ParamSpec> timing_params(double duration_s, double warmup_s);
// A device's: `region_size`, then the timing_params().
std::vector<ParamSpec> timed_run_params(double duration_s, double warmup_s);

// `region_size` fitted to the device and at least `largest_block`.
std::uint64_t timed_run_region(const BenchmarkContext& ctx, std::uint32_t largest_block);

inline std::uint64_t seconds_to_ns(double seconds) noexcept { return static_cast<std::uint64_t>(seconds * 1e9); }

} // namespace diskbench::engine::benchmarks
