// SPDX-License-Identifier: GPL-3.0-or-later
// "Sustained write": a long sequential write plotted as time against MB/s,
// long enough to fill an SSD's SLC cache and show its cliff (the SSD
// review: a drive writing 1.5 GB/s into its cache may fall to 100 MB/s once
// the cache is full), then whether the speed settles (steady_state_analysis.hpp).
// The queue stays full and one fdatasync ends the run, inside its timing
// (fio's end_fsync=1): a window is what the drive confirmed in it, which
// for a drive with a volatile write cache on includes what its DRAM holds
// (the checks card says whether it was on). sync_every adds an fdatasync
// each that many bytes, timed in the window it falls in. Destroy only.
#include "../base/errors.hpp"
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/sustained_write.hpp"
#include "device_write_support.hpp"
#include "file_support.hpp"
#include "steady_state_analysis.hpp"
#include "timed_run.hpp"

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;
namespace sustained_write_keys = contract::kinds::keys::sustained_write;

namespace {

void run(BenchmarkContext& ctx)
{
    const SyncPlan sync = checked_sync_plan(ctx, checked_write_mode(ctx, false));
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    std::uint64_t size = ctx.params.unsigned_value("size");
    if (size == 0)
        size = ctx.target.size - ctx.target.size % block;
    else
        size = fitted_amount(ctx, "size", ctx.target.size, block, "area written");
    if (size % ctx.target.logical_block != 0 || size < block)
        throw ParameterError("size", Failure { "error-size-not-whole-blocks",
                                               { { "logical_block", ctx.target.logical_block },
                                                 { "block", format_bytes(block) } } });
    const auto queue_depth = static_cast<unsigned>(ctx.params.unsigned_value("queue_depth"));
    check_in_flight("queue_depth", 1, queue_depth, block);
    const std::uint64_t duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
    const std::uint64_t window_ns = seconds_to_ns(ctx.params.real("window_s"));
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    value_at(ctx.result.summary, common_keys::written_range_bytes) = size;
    if (ctx.plan_only)
        return;

    const std::size_t series = ctx.recorder.add_series({ "throughput", "s", "MB/s", SeriesStyle::Line });
    std::vector<ThroughputWindow> windows;
    std::uint64_t start_ns = 0;
    std::uint64_t window_start_ns = 0;
    std::uint64_t window_bytes = 0;
    std::uint64_t done_bytes = 0;
    std::uint64_t unsynced_bytes = 0;
    std::uint64_t syncs = 0;
    const auto close_window = [&](std::uint64_t end_ns) {
        const ThroughputWindow window { static_cast<double>(end_ns - start_ns) / 1e9,
                                        mb_per_s(window_bytes, end_ns - window_start_ns), done_bytes - window_bytes };
        windows.push_back(window);
        ctx.recorder.add_point(series, { window.end_s, window.mb_s });
        window_bytes = 0;
        window_start_ns = end_ns;
    };
    ObserverFunction observer([&](unsigned, const IoCompletion& c) {
        if (start_ns == 0)
            start_ns = window_start_ns = c.submitted_ns;
        window_bytes += c.request.length;
        done_bytes += c.request.length;
        unsynced_bytes += c.request.length;
        // One worker: these calls never overlap, and a sync here holds
        // back the next submissions as fio's fsync= does.
        std::uint64_t now_ns = c.completed_ns;
        if (sync.every_bytes != 0 && unsynced_bytes >= sync.every_bytes) {
            sync_data(ctx.target);
            ++syncs;
            unsynced_bytes = 0;
            now_ns = monotonic_ns();
        }
        if (now_ns - window_start_ns >= window_ns)
            close_window(now_ns);
        const double fraction = duration_ns
            ? static_cast<double>(c.completed_ns - start_ns) / static_cast<double>(duration_ns)
            : static_cast<double>(done_bytes) / static_cast<double>(size);
        ctx.recorder.set_progress(std::min(1.0, fraction));
    });

    IoRunSpec spec;
    spec.direction = IoDirection::Write;
    spec.data_seed = seed;
    spec.queue_depth = queue_depth;
    spec.max_request_bytes = block;
    // With a duration, round and round the area (fio's time_based); without,
    // one pass over it.
    spec.make_source = [&](unsigned) { return std::make_unique<SequentialSource>(0, size, block, duration_ns != 0); };
    spec.time_limit_ns = duration_ns;
    spec.observer = &observer;
    spec.cancel = &ctx.cancel;
    const IoRunStats stats = ctx.io.run(ctx.target, spec);
    if (unsynced_bytes > 0) {
        sync_data(ctx.target);
        ++syncs;
    }
    count_syncs(ctx, syncs);
    const std::uint64_t end_ns = monotonic_ns();
    // A last window of at least half the length counts; a shorter one would
    // be a noisy point at the very end of the analysis. A run shorter than
    // half a window (a fast device, a small area) is one window: without it
    // the result would say 0 MB/s for a run that wrote everything.
    if (window_bytes > 0 && start_ns != 0 && (windows.empty() || end_ns - window_start_ns >= window_ns / 2))
        close_window(end_ns);

    const SustainedAnalysis analysis = analyse_sustained(windows);
    value_at(ctx.result.summary, sustained_write_keys::bytes) = stats.bytes;
    value_at(ctx.result.summary, sustained_write_keys::seconds)
        = start_ns ? static_cast<double>(end_ns - start_ns) / 1e9 : 0.0;
    value_at(ctx.result.summary, sustained_write_keys::throughput_mb_s)
        = start_ns ? mb_per_s(stats.bytes, end_ns - start_ns) : 0.0;
    value_at(ctx.result.summary, sustained_write_keys::windows) = static_cast<std::uint64_t>(windows.size());
    value_at(ctx.result.summary, sustained_write_keys::burst_mb_s) = analysis.burst_mb_s;
    value_at(ctx.result.summary, sustained_write_keys::steady_mb_s) = analysis.steady_mb_s;
    // Where it fell, only when it fell: "cliff at 0 s" would read as a
    // cliff at the start.
    value_at(ctx.result.summary, sustained_write_keys::cliff) = analysis.cliff;
    if (analysis.cliff) {
        value_at(ctx.result.summary, sustained_write_keys::cliff_at_bytes) = analysis.cliff_at_bytes;
        value_at(ctx.result.summary, sustained_write_keys::cliff_at_s) = analysis.cliff_at_s;
    }
    value_at(ctx.result.summary, sustained_write_keys::steady_state) = analysis.steady_state;
    add_latency_summary(ctx.result.summary, stats.latency);
    // An SLC cache is smaller than the drive: a run that wrote less than
    // the drive's size and found no cliff may simply have stopped short.
    if (!analysis.cliff && !stats.cancelled && stats.bytes < ctx.target.size)
        ctx.recorder.note({ "write-no-cliff-short",
                            { { "written", format_bytes(stats.bytes) }, { "size", format_bytes(ctx.target.size) } } });
    if (!analysis.steady_state && !stats.cancelled)
        ctx.recorder.note({ "write-speed-unsettled",
                            { { "windows", SteadyStateCriteria {}.windows },
                              { "tolerance", SteadyStateCriteria {}.tolerance * 100 } } });
}

} // namespace

BenchmarkInfo sustained_write()
{
    BenchmarkInfo info {
        "sustained-write",
        "Sustained write",
        "Destroys data: writes sequentially over `size` bytes from the start of the device (once, or round and "
        "round for duration_s) and plots time against MB/s per window, the queue kept full and one fdatasync at "
        "the end (or one each sync_every bytes); reports the burst "
        "speed, where it fell (an SLC cache filling up), the steady speed and whether it was reached (SNIA-style: "
        "the last 5 windows within ±10 % of their mean, with a small slope). Needs mode=destroy and confirm.",
        with_common_params(write_mode_params({
            unsigned_param("size", "Bytes from the start of the device to write over; 0: the whole device.", 0, 0,
                           1ULL << 60),
            unsigned_param("block_size", "Bytes per write; 0 means the logical block size.", 4 * MiB, 0,
                           max_request_size),
            unsigned_param("queue_depth", "Writes in flight.", 1, 1, 1024),
            real_param("duration_s", "Write for this long, wrapping round `size`; 0: one pass over `size`.", 0, 0,
                       86400),
            real_param("window_s", "Seconds per point of the series.", 1.0, 0.01, 600),
            sync_every_param(),
        }, false), Seeded::No),
        run,
    };
    info.params.push_back(data_seed_param());
    info.writes_device = true;
    return info;
}

} // namespace diskbench::engine::benchmarks
