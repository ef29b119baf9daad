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
#include "../benchmark_support.hpp"
#include "../clock.hpp"
#include "../errors.hpp"
#include "../request_sources.hpp"
#include "benchmarks.hpp"

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

// Splits `blocks` blocks into `count` buckets as evenly as whole blocks
// allow (sizes differ by at most one block), so a 1024-block device asked
// for 1000 buckets gets 1000, not 512 buckets of two.
class BucketLayout {
public:
    BucketLayout(std::uint64_t blocks, std::uint64_t wanted) : blocks_(blocks), count_(std::min(blocks, wanted)) {}
    [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
    [[nodiscard]] std::uint64_t bucket_of(std::uint64_t block) const noexcept
    {
        return static_cast<std::uint64_t>(static_cast<uint128>(block) * count_ / blocks_);
    }
    // The first block of bucket i (i == count() gives the end).
    [[nodiscard]] std::uint64_t first_block(std::uint64_t i) const noexcept
    {
        return static_cast<std::uint64_t>((static_cast<uint128>(i) * blocks_ + count_ - 1) / count_);
    }

private:
    __extension__ typedef unsigned __int128 uint128; // block x count may pass 2^64 on huge devices
    std::uint64_t blocks_;
    std::uint64_t count_;
};

constexpr std::uint64_t partial_interval_ns = 200'000'000;
constexpr std::uint64_t max_partials_per_bucket = 100;

struct Bucket {
    std::uint64_t bytes = 0;
    std::uint64_t busy_ns = 0; // sum of read latencies
    std::uint64_t reads = 0;
    double slowest = 0;
    double fastest = 0;
};

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const std::uint64_t wanted_buckets = ctx.params.unsigned_value("buckets");
    if (ctx.plan_only)
        return;

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
    // 100000 x 40 bytes).
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
        const double rate = mb_per_s(c.request.length, c.latency_ns());
        bucket.slowest = bucket.reads == 0 ? rate : std::min(bucket.slowest, rate);
        bucket.fastest = std::max(bucket.fastest, rate);
        bucket.bytes += c.request.length;
        bucket.busy_ns += c.latency_ns();
        ++bucket.reads;
        const std::uint64_t bucket_blocks = layout.first_block(index + 1) - layout.first_block(index);
        const auto x = static_cast<double>(layout.first_block(index) * block);
        if (bucket.reads == bucket_blocks) {
            ctx.recorder.add_point(mean_series, { x, mb_per_s(bucket.bytes, bucket.busy_ns) });
            ctx.recorder.add_point(min_series, { x, bucket.slowest });
            ctx.recorder.add_point(max_series, { x, bucket.fastest });
            slowest = any_bucket ? std::min(slowest, bucket.slowest) : bucket.slowest;
            any_bucket = true;
            fastest = std::max(fastest, bucket.fastest);
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
    spec.make_source = [&](unsigned) { return std::make_unique<SequentialSource>(0, size, block, false); };
    spec.observer = &observer;
    spec.cancel = &ctx.cancel;
    const IoRunStats stats = ctx.io.run(ctx.target, spec);

    ctx.result.summary["bytes"] = stats.bytes;
    ctx.result.summary["buckets"] = layout.count();
    ctx.result.summary["throughput_mb_s"] = stats.megabytes_per_second();
    ctx.result.summary["read_min_mb_s"] = slowest;
    ctx.result.summary["read_max_mb_s"] = fastest;
    add_latency_summary(ctx.result.summary, stats.latency);
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
        }, Seeded::No),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
