// SPDX-License-Identifier: GPL-3.0-or-later
// HD Tune's "burst rate": the interface's peak. One small region at the
// start of the device is read again and again, so after the warm-up the
// drive's cache answers and what is measured is the link and the
// controller, not the medium. Drawn as MB/s per 50 ms window over the
// measured time; the link's limit comes beside it from the block-layer
// cross-check (storage/cross_check), as for every device run.
#include "../benchmark_support.hpp"
#include "benchmarks.hpp"
#include "timed_run.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/burst.hpp"

#include <algorithm>

namespace diskbench::engine::benchmarks {

namespace burst_keys = contract::kinds::keys::burst;

namespace {

// A point per window: short enough to show a stall of the link, long
// enough that a window holds many reads at the defaults (128 KiB at a few
// GB/s is some thousand reads per window).
constexpr std::uint64_t window_ns = 50'000'000;

// A region a drive's cache holds: a few MiB at most (HD Tune reads one
// block again); a larger one measures the medium, which other kinds do.
constexpr std::uint64_t max_region = 64 * MiB;

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const auto depth = static_cast<unsigned>(ctx.params.unsigned_value("queue_depth"));
    check_in_flight("queue_depth", 1, depth, block);
    const std::uint64_t region = timed_run_region(ctx, block);
    if (ctx.plan_only)
        return;

    const std::size_t series = ctx.recorder.add_series({ "throughput", "s", "MB/s", SeriesStyle::Line });
    std::uint64_t first_ns = 0, window_start_ns = 0, window_bytes = 0, latest_ns = 0;
    double slowest = 0, fastest = 0;
    bool any_window = false;
    ObserverFunction observer([&](unsigned, const IoCompletion& c) {
        if (first_ns == 0)
            first_ns = window_start_ns = c.submitted_ns;
        latest_ns = std::max(latest_ns, c.completed_ns);
        window_bytes += c.request.length;
        if (latest_ns - window_start_ns < window_ns)
            return;
        const double rate = mb_per_s(window_bytes, latest_ns - window_start_ns);
        ctx.recorder.add_point(series, { static_cast<double>(latest_ns - first_ns) / 1e9, rate });
        slowest = any_window ? std::min(slowest, rate) : rate;
        fastest = std::max(fastest, rate);
        any_window = true;
        window_start_ns = latest_ns;
        window_bytes = 0;
    });

    TimedRunPlan plan;
    plan.test = ProfileTest { false, block, depth, 1 };
    plan.region = region;
    plan.warmup_ns = seconds_to_ns(ctx.params.real("warmup_s"));
    plan.duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
    plan.max_bytes = ctx.params.unsigned_value("max_bytes");
    plan.progress_share = 1;
    plan.observer = &observer;
    const IoRunStats stats = timed_run(ctx, plan);
    if (stats.cancelled)
        return;

    value_at(ctx.result.summary, burst_keys::burst_mb_s) = stats.megabytes_per_second();
    // A run shorter than one window has no windows: its one rate is both.
    value_at(ctx.result.summary, burst_keys::throughput_min_mb_s) = any_window ? slowest : stats.megabytes_per_second();
    value_at(ctx.result.summary, burst_keys::throughput_max_mb_s) = any_window ? fastest : stats.megabytes_per_second();
    value_at(ctx.result.summary, burst_keys::bytes) = stats.bytes;
    value_at(ctx.result.summary, burst_keys::region_size) = region;
    add_latency_summary(ctx.result.summary, stats.latency);
}

} // namespace

BenchmarkInfo burst()
{
    std::vector<ParamSpec> params {
        unsigned_param("region_size", "Bytes at the start of the device read again and again (what the drive's cache "
                                      "should hold).",
                       MiB, 1, max_region),
        unsigned_param("block_size", "Bytes per read; 0 means the logical block size.", 128 * KiB, 0, 16 * MiB),
        unsigned_param("queue_depth", "Reads in flight.", 4, 1, 256),
    };
    for (auto& spec : timing_params(2.0, 0.2))
        params.push_back(std::move(spec));
    return {
        contract::kinds::burst,
        "Burst rate",
        "HD Tune's burst rate: reads one small region at the start of the device again and again, so that the "
        "drive's cache answers, and plots MB/s over time; the interface's peak, beside the link's limit.",
        with_common_params(std::move(params), Seeded::No),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
