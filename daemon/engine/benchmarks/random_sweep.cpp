// SPDX-License-Identifier: GPL-3.0-or-later
// "Random" in HDDTest: for each power-of-two block size, a fixed number of
// reads at seeded random offsets. Shows how a drive copes with small
// scattered transfers; with `aligned` off, offsets are only logical-block
// aligned, which exposes flash page boundaries (thesis, fig. 3.11).
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "sweep_support.hpp"

namespace diskbench::engine::benchmarks {

namespace {

void run(BenchmarkContext& ctx)
{
    const std::uint64_t count = ctx.params.unsigned_value("count_per_size");
    const bool aligned = ctx.params.boolean("aligned");
    const auto queue_depth = static_cast<unsigned>(ctx.params.unsigned_value("queue_depth"));
    const std::vector<std::uint32_t> sizes = sweep_block_sizes(ctx);
    check_in_flight("queue_depth", 1, queue_depth, sizes.back());
    if (ctx.plan_only)
        return;

    std::vector<SweepPhase> phases;
    for (std::uint32_t size : sizes)
        phases.push_back({ size, count, true });
    Xoshiro256StarStar rng(ctx.params.unsigned_value("seed"));
    run_sweep(ctx, phases, queue_depth, [&](const SweepPhase& phase) {
        const std::uint32_t alignment = aligned ? phase.block : ctx.target.logical_block;
        return std::make_unique<RandomSource>(rng, 0, ctx.target.size, phase.block, alignment, phase.reads);
    });
}

} // namespace

BenchmarkInfo random_sweep()
{
    return {
        "random",
        "Random block read",
        "For each power-of-two block size from min_block to max_block, reads count_per_size blocks at seeded "
        "random offsets; one bar per size (MB/s and IOPS).",
        with_common_params({
            unsigned_param("count_per_size", "Reads per block size.", 100, 1, 10'000'000),
            unsigned_param("min_block", "Smallest block size in bytes; 0 means the logical block size.", 0, 0,
                           max_request_size),
            unsigned_param("max_block", "Largest block size in bytes (a power of two).", MiB, 0, max_request_size),
            bool_param("aligned", "Align each offset to its block size (true) or only to the logical block (false).",
                       true),
            unsigned_param("queue_depth", "Reads in flight.", 1, 1, 1024),
        }),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
