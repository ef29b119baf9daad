// SPDX-License-Identifier: GPL-3.0-or-later
// "Cont" in HDDTest: a long sequential read in large blocks, plotted as
// position against MB/s. Throughput is measured per interval (bytes
// completed between two points over the time between them), so it stays
// right with more than one read in flight.
#include "../base/errors.hpp"
#include "../benchmark_support.hpp"
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/sequential.hpp"

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace sequential_keys = contract::kinds::keys::sequential;

namespace {

// At most this many points, however long the read: beyond it an interval
// covers several blocks.
constexpr std::uint64_t max_points = 2048;

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const std::uint64_t start = ctx.params.unsigned_value("offset");
    if (start % ctx.target.logical_block != 0 || start >= ctx.target.size)
        throw ParameterError("offset", Failure { "error-offset-not-aligned",
                                                 { { "logical_block", ctx.target.logical_block },
                                                   { "size", ctx.target.size } } });
    const std::uint64_t size = fitted_amount(ctx, "size", ctx.target.size - start, ctx.target.logical_block,
                                             "amount read");
    if (size % ctx.target.logical_block != 0)
        throw ParameterError("size", Failure { "error-not-logical-block-multiple",
                                               { { "value", size }, { "logical_block", ctx.target.logical_block } } });
    if (size < block)
        throw ParameterError("size", Failure { "error-less-than-one-block", { { "size", size }, { "block", block } } });
    const auto queue_depth = static_cast<unsigned>(ctx.params.unsigned_value("queue_depth"));
    check_in_flight("queue_depth", 1, queue_depth, block);
    if (ctx.plan_only)
        return;

    const std::size_t series = ctx.recorder.add_series({ "throughput", "B", "MB/s", SeriesStyle::Line });
    // A point needs at least as many reads as are in flight: with QD > 1
    // reads complete in batches (io_uring reaps several at one timestamp)
    // or out of order (psync), and an interval shorter than that measures
    // the batching, not the device.
    const std::uint64_t blocks_per_point
        = std::max<std::uint64_t>(queue_depth, (size / block + max_points - 1) / max_points);
    const std::uint64_t point_bytes = blocks_per_point * block;

    std::uint64_t done_bytes = 0;
    std::uint64_t interval_bytes = 0;
    std::uint64_t interval_start_ns = 0;
    std::uint64_t latest_ns = 0;
    std::uint64_t interval_position = start;
    double slowest = 0;
    double fastest = 0;
    bool any_point = false;
    ObserverFunction observer([&](unsigned, const IoCompletion& c) {
        if (interval_start_ns == 0)
            interval_start_ns = c.submitted_ns;
        latest_ns = std::max(latest_ns, c.completed_ns);
        interval_bytes += c.request.length;
        done_bytes += c.request.length;
        if ((interval_bytes >= point_bytes || done_bytes == size) && latest_ns > interval_start_ns) {
            const double rate = mb_per_s(interval_bytes, latest_ns - interval_start_ns);
            ctx.recorder.add_point(series, { static_cast<double>(interval_position), rate });
            slowest = any_point ? std::min(slowest, rate) : rate;
            fastest = std::max(fastest, rate);
            any_point = true;
            interval_position += interval_bytes;
            interval_bytes = 0;
            interval_start_ns = latest_ns;
        }
        ctx.recorder.set_progress(static_cast<double>(done_bytes) / static_cast<double>(size));
    });

    IoRunSpec spec;
    spec.queue_depth = queue_depth;
    spec.max_request_bytes = block;
    spec.make_source = [&](unsigned) { return std::make_unique<SequentialSource>(start, start + size, block, false); };
    spec.observer = &observer;
    spec.cancel = &ctx.cancel;
    const IoRunStats stats = ctx.io.run(ctx.target, spec);

    value_at(ctx.result.summary, sequential_keys::bytes) = stats.bytes;
    value_at(ctx.result.summary, sequential_keys::throughput_mb_s) = stats.megabytes_per_second();
    value_at(ctx.result.summary, sequential_keys::throughput_min_mb_s) = slowest;
    value_at(ctx.result.summary, sequential_keys::throughput_max_mb_s) = fastest;
    add_latency_summary(ctx.result.summary, stats.latency);
}

} // namespace

BenchmarkInfo sequential()
{
    return {
        "sequential",
        "Sequential read",
        "Reads `size` bytes from `offset` in block_size reads and plots position against MB/s "
        "(at most 2048 points).",
        with_common_params({
            unsigned_param("size", "Bytes to read (scaled down to the device when not given).", 4 * GiB, 1, 1ULL << 60),
            unsigned_param("block_size", "Bytes per read; 0 means the logical block size.", 4 * MiB, 0,
                           max_request_size),
            unsigned_param("offset", "Where to start, in bytes.", 0, 0, 1ULL << 60),
            unsigned_param("queue_depth", "Reads in flight.", 1, 1, 1024),
        }, Seeded::No),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
