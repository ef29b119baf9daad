// SPDX-License-Identifier: GPL-3.0-or-later
// Access time ("Seek" in HDDTest): single-block reads at seeded random
// offsets, one at a time, so each read pays the full seek + rotation (or the
// flash lookup). Plotted as seek distance against latency.
#include "../benchmark_support.hpp"
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/seek.hpp"

#include <cstdlib>

namespace diskbench::engine::benchmarks {

namespace seek_keys = contract::kinds::keys::seek;

namespace {

void run(BenchmarkContext& ctx)
{
    const std::uint64_t count = ctx.params.unsigned_value("count");
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    if (ctx.plan_only)
        return;

    const std::size_t series = ctx.recorder.add_series({ "latency", "B", "us", SeriesStyle::Scatter });
    Xoshiro256StarStar rng(ctx.params.unsigned_value("seed"));
    std::uint64_t previous_end = 0;
    std::uint64_t done = 0;
    ObserverFunction observer([&](unsigned, const IoCompletion& c) {
        const std::uint64_t distance = c.request.offset > previous_end ? c.request.offset - previous_end
                                                                       : previous_end - c.request.offset;
        previous_end = c.request.offset + c.request.length;
        ctx.recorder.add_point(series, { static_cast<double>(distance), to_us(c.latency_ns()) });
        ctx.recorder.set_progress(static_cast<double>(++done) / static_cast<double>(count));
    });

    IoRunSpec spec;
    spec.queue_depth = 1;
    spec.max_request_bytes = block;
    spec.make_source = [&](unsigned) {
        return std::make_unique<RandomSource>(rng, 0, ctx.target.size, block, block, count);
    };
    spec.observer = &observer;
    spec.random = true;
    spec.cancel = &ctx.cancel;
    const IoRunStats stats = ctx.io.run(ctx.target, spec);

    value_at(ctx.result.summary, seek_keys::reads) = stats.operations;
    value_at(ctx.result.summary, seek_keys::block_size) = std::uint64_t { block };
    add_latency_summary(ctx.result.summary, stats.latency);
    add_latency_cdf(ctx.recorder, "", stats.latency);
}

} // namespace

BenchmarkInfo seek()
{
    return {
        "seek",
        "Access time",
        "Reads one block at each of `count` seeded random offsets, one read at a time, and plots the "
        "distance from the previous read against the read's latency.",
        with_common_params({
            unsigned_param("count", "Number of reads.", 1000, 1, 1'000'000),
            unsigned_param("block_size", "Bytes per read; 0 means the device's logical block size.", 0, 0,
                           max_request_size),
        }),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
