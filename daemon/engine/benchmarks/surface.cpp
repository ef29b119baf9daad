// SPDX-License-Identifier: GPL-3.0-or-later
// Whole-surface read map (the blockspeed study): every block of the device
// read once in order, one read at a time (queue depth 1, as in the study:
// with more in flight a read's latency includes waiting behind the others and
// length/latency no longer is the speed at that spot). The device is cut into a
// fixed number of buckets and only each bucket's min/mean/max speed is kept,
// so memory does not grow with the device: a 20 TB disk costs what a 1 GB
// stick does. The min/max envelope shows the zones and the slow spots that
// a mean alone would hide.
//
// A bucket of a multi-terabyte disk takes minutes to read, so while one fills
// its running mean/min/max go out as partial points ("mean.partial", ...; see
// partial_series_suffix), at most every partial_interval_ns and only after
// the bucket grew by 1/max_partials_per_bucket: at most 100 per bucket and 5
// a second, so a 20 TB map (1000 buckets of 100 s at 200 MB/s) moves every
// second and adds at most 300,000 points (the daemon caps them at 375,000).
//
// The people who scan a whole surface are mostly the people who suspect
// their drive, so a failed read does not end the scan (surface_faults.hpp):
// it is recorded, the scan moves on, and afterwards every failed read is
// re-read in smaller pieces down to the logical block to find the exact
// bad blocks; reads far slower than the run's median are re-read once to
// tell a weak sector (slow every time) from a one-off. The scan stops by
// itself when too much fails (max_bad_ranges, max_bad_percent), so a dead
// drive is not hammered for hours.
#include "surface_faults.hpp"

#include "contract/kinds/bucket_layout.hpp"

#include "../base/clock.hpp"
#include "../base/errors.hpp"
#include "../benchmark_support.hpp"
#include "../io/request_sources.hpp"
#include "../results/latency_histogram.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/surface.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <optional>

namespace diskbench::engine::benchmarks {

namespace surface_keys = contract::kinds::keys::surface;

namespace {

using contract::BucketLayout;

constexpr std::uint64_t partial_interval_ns = 200'000'000;
constexpr std::uint64_t max_partials_per_bucket = 100;

struct Bucket {
    std::uint64_t bytes = 0;
    std::uint64_t busy_ns = 0; // sum of read latencies
    std::uint64_t reads = 0;   // good and failed
    std::uint64_t good = 0;
    double slowest = 0;
    double fastest = 0;
};

// Bad ranges kept in the result (merged); beyond, only counted.
constexpr std::size_t max_bad_ranges_kept = 10'000;
// The slow-read floor: a read slower than this can be a slow spot (the
// threshold is also 10x the run's median).

// Summary, series and messages of what the scan found wrong. The series
// are declared only when they get points (a healthy disk's result has
// none): "bad" (x: offset, y: length in bytes) with "bad_errno" (x: the
// same offset, y: the errno), "slow" (x: offset, y: ms) with "slow_again"
// (the re-reads).
void record_faults(BenchmarkContext& ctx, const FaultLog& log, const LatencyHistogram& latency, bool rotating);

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const std::uint64_t wanted_buckets = ctx.params.unsigned_value("buckets");
    if (ctx.plan_only)
        return;
    const bool rotating = target_rotates(ctx.target);
    const FaultLimits limits = fault_limits(ctx, rotating);
    FaultLog faults(limits);
    std::atomic<bool> stop { false };
    std::optional<IoCompletion> failed; // the read that ended the last run

    const std::uint64_t size = ctx.target.size;
    const std::uint64_t blocks_total = (size + block - 1) / block;
    const BucketLayout layout(blocks_total, wanted_buckets);
    if (layout.count() < wanted_buckets)
        ctx.recorder.note({ "surface-fewer-buckets",
                            { { "buckets", layout.count() },
                              { "wanted", wanted_buckets },
                              { "blocks", blocks_total },
                              { "block", format_bytes(block) } } });

    const std::size_t mean_series = ctx.recorder.add_series({ "mean", "B", "MB/s", SeriesStyle::Line });
    const std::size_t min_series = ctx.recorder.add_series({ "min", "B", "MB/s", SeriesStyle::Line });
    const std::size_t max_series = ctx.recorder.add_series({ "max", "B", "MB/s", SeriesStyle::Line });
    const std::size_t mean_partial = ctx.recorder.add_series({ partial_series_name("mean"), "B", "MB/s", SeriesStyle::Line });
    const std::size_t min_partial = ctx.recorder.add_series({ partial_series_name("min"), "B", "MB/s", SeriesStyle::Line });
    const std::size_t max_partial = ctx.recorder.add_series({ partial_series_name("max"), "B", "MB/s", SeriesStyle::Line });

    // One slot per bucket, bounded by the `buckets` parameter (at most
    // 100000 x 48 bytes).
    std::vector<Bucket> buckets(layout.count());
    std::uint64_t done_bytes = 0;
    double slowest = 0;
    double fastest = 0;
    bool any_bucket = false;
    std::uint64_t last_point_ns = monotonic_ns(); // the last point of any kind
    std::uint64_t reads_at_last_partial = 0;      // of the bucket being filled
    ObserverFunction observer([&](unsigned, const IoCompletion& c) {
        const std::uint64_t index = layout.bucket_of(c.request.offset / block);
        Bucket& bucket = buckets[index];
        if (c.error) {
            // Queue depth 1: nothing else is in flight. The run ends here,
            // the read is narrowed down, and the scan goes on after it.
            failed = c;
            stop = true;
        } else {
            faults.add_read(c);
            const double rate = mb_per_s(c.request.length, c.latency_ns());
            bucket.slowest = bucket.good == 0 ? rate : std::min(bucket.slowest, rate);
            bucket.fastest = std::max(bucket.fastest, rate);
            bucket.bytes += c.request.length;
            bucket.busy_ns += c.latency_ns();
            ++bucket.good;
        }
        ++bucket.reads;
        const std::uint64_t bucket_blocks = layout.first_block(index + 1) - layout.first_block(index);
        const auto x = static_cast<double>(layout.first_block(index) * block);
        if (bucket.reads == bucket_blocks) {
            // A bucket that could not be read at all reads at 0 MB/s.
            ctx.recorder.add_point(mean_series, { x, mb_per_s(bucket.bytes, bucket.busy_ns) });
            ctx.recorder.add_point(min_series, { x, bucket.slowest });
            ctx.recorder.add_point(max_series, { x, bucket.fastest });
            if (bucket.good > 0) {
                slowest = any_bucket ? std::min(slowest, bucket.slowest) : bucket.slowest;
                any_bucket = true;
                fastest = std::max(fastest, bucket.fastest);
            }
            last_point_ns = monotonic_ns();
            reads_at_last_partial = 0;
        } else if ((bucket.reads - reads_at_last_partial) * max_partials_per_bucket >= bucket_blocks) {
            if (const std::uint64_t now = monotonic_ns(); now - last_point_ns >= partial_interval_ns) {
                ctx.recorder.add_point(mean_partial, { x, mb_per_s(bucket.bytes, bucket.busy_ns) });
                ctx.recorder.add_point(min_partial, { x, bucket.slowest });
                ctx.recorder.add_point(max_partial, { x, bucket.fastest });
                last_point_ns = now;
                reads_at_last_partial = bucket.reads;
            }
        }
        done_bytes += c.request.length;
        ctx.recorder.set_progress(static_cast<double>(done_bytes) / static_cast<double>(size));
    });

    IoRunSpec spec;
    spec.queue_depth = 1; // each read timed alone: see the top of this file
    spec.max_request_bytes = block;
    spec.tolerate_read_errors = true;
    spec.phase = "the scan";
    spec.observer = &observer;
    spec.cancel = &ctx.cancel;

    // One run from `next` to the end or to the next failed read, as often
    // as reads fail (at most max_bad_ranges + 1 runs).
    std::uint64_t next = 0;
    std::uint64_t bytes = 0, active_ns = 0;
    LatencyHistogram latency;
    while (next < size) {
        failed.reset();
        stop = false;
        spec.make_source = [&](unsigned) { return std::make_unique<StoppableSource>(next, size, block, stop); };
        const IoRunStats stats = ctx.io.run(ctx.target, spec);
        bytes += stats.bytes;
        active_ns += stats.finished_ns - stats.started_ns;
        latency.merge(stats.latency);
        if (!failed)
            break; // the end, or cancelled
        // Cancelled meanwhile, the failed read is kept whole (not narrowed):
        // a stopped scan still lists every read that failed.
        const bool go_on = faults.add_bad(narrow_failed_read(ctx, failed->request, failed->error, limits));
        next = failed->request.offset + failed->request.length;
        if (!go_on || ctx.cancel.cancelled())
            break; // the scan stops by itself (record_faults says why), or was stopped
    }

    value_at(ctx.result.summary, surface_keys::bytes) = bytes;
    value_at(ctx.result.summary, surface_keys::buckets) = layout.count();
    value_at(ctx.result.summary, surface_keys::throughput_mb_s) = mb_per_s(bytes, active_ns);
    value_at(ctx.result.summary, surface_keys::read_min_mb_s) = slowest;
    value_at(ctx.result.summary, surface_keys::read_max_mb_s) = fastest;
    add_latency_summary(ctx.result.summary, latency);
    record_faults(ctx, faults, latency, rotating);
}

void record_faults(BenchmarkContext& ctx, const FaultLog& log, const LatencyHistogram& latency, bool rotating)
{
    ValueMap& summary = ctx.result.summary;
    const std::uint64_t sector = ctx.target.logical_block;
    if (const std::string reason = log.stop_reason(); !reason.empty()) {
        value_at(summary, surface_keys::stopped_reason) = reason;
        ctx.recorder.warn({ "surface-stopped-bad",
                            { { "ranges", log.bad_range_count() },
                              { "bytes", format_bytes(log.bad_bytes()) },
                              { "max_bad_ranges", log.limits().max_bad_ranges },
                              { "max_bad_percent", log.limits().max_bad_percent } } });
    }

    // Bad blocks, exact to the logical block (where the re-reads sufficed).
    const std::vector<BadRange> bad = log.bad_ranges();
    add_bad_series(ctx, bad);
    value_at(summary, surface_keys::bad_ranges) = log.bad_range_count();
    value_at(summary, surface_keys::bad_bytes) = log.bad_bytes();
    value_at(summary, surface_keys::failed_reads) = log.failed_reads();
    if (!bad.empty()) {
        value_at(summary, surface_keys::first_bad_lba) = bad.front().offset / sector;
        if (log.bad_range_count() > bad.size())
            value_at(summary, surface_keys::bad_ranges_not_kept) = log.bad_range_count() - bad.size();
        const auto not_narrowed = std::count_if(bad.begin(), bad.end(), [](const BadRange& r) { return !r.narrowed; });
        if (not_narrowed > 0)
            value_at(summary, surface_keys::bad_ranges_not_narrowed) = static_cast<std::uint64_t>(not_narrowed);
        ctx.recorder.warn({ "surface-bad-blocks",
                            { { "ranges", log.bad_range_count() },
                              { "bytes", format_bytes(log.bad_bytes()) },
                              { "first_lba", bad.front().offset / sector } } });
    }

    // Slow spots: 10x the median read, and at least the floor.
    const double threshold_ms = slow_threshold_ms(ctx, latency, rotating);
    const std::vector<SlowRead> slow = judge_slow_reads(ctx, log, threshold_ms, ctx.params.boolean("reread_slow"));
    std::uint64_t repeatable = 0, one_off = 0;
    const SlowRead* slowest = nullptr;
    add_slow_series(ctx, slow);
    for (const SlowRead& read : slow) {
        if (read.again_ms >= 0)
            ++(read.again_ms >= threshold_ms ? repeatable : one_off);
        if (!slowest || read.ms > slowest->ms)
            slowest = &read;
    }
    value_at(summary, surface_keys::slow_threshold_ms) = threshold_ms;
    value_at(summary, surface_keys::slow_blocks)
        = static_cast<std::uint64_t>(slow.size() + log.slow_candidates_dropped());
    if (slowest) {
        value_at(summary, surface_keys::slowest_read_ms) = slowest->ms;
        value_at(summary, surface_keys::slowest_read_offset) = slowest->offset;
        value_at(summary, surface_keys::slow_repeatable) = repeatable;
        value_at(summary, surface_keys::slow_one_off) = one_off;
        ctx.recorder.note({ "surface-slow-spots",
                            { { "count", static_cast<std::uint64_t>(slow.size()) },
                              { "threshold_ms", threshold_ms },
                              { "repeatable", repeatable },
                              { "one_off", one_off } } });
    }
}

} // namespace

BenchmarkInfo surface()
{
    return {
        "surface",
        "Whole-surface read map",
        "Reads the whole device in block_size reads, timing each, and plots per-bucket mean, min and max MB/s "
        "against position.",
        with_common_params({
            unsigned_param("block_size", "Bytes per read; 0 means the logical block size.", MiB, 0, max_request_size),
            unsigned_param("buckets", "Points along the device (memory stays bounded by this).", 1000, 1, 100'000),
            unsigned_param("max_bad_ranges", "Failed reads after which the scan stops by itself (a dead drive is "
                                             "not read for hours).", 1000, 1, 1'000'000),
            real_param("max_bad_percent", "Share of the device, in percent, whose reads may fail before the scan "
                                          "stops by itself.", 1.0, 0.001, 100),
            unsigned_param("reread_limit", "Re-reads of one failed read while finding its exact bad blocks (0: "
                                           "keep the failed read whole).", 300, 0, 100'000),
            real_param("slow_ms", "A read at least this slow is a slow spot; 0: ten times the run's median read, "
                                  "and at least 20 ms on a rotating disk, 5 ms otherwise.", 0, 0, 600'000),
            bool_param("reread_slow", "Read each slow spot again, to tell a weak sector (slow every time) from a "
                                      "one-off.", true),
        }, Seeded::No),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
