// SPDX-License-Identifier: GPL-3.0-or-later
// "Block" in HDDTest: the same amount read sequentially with each
// power-of-two block size, to show what small requests cost without seeks.
// Each size reads its own region so the drive's cache cannot serve it data
// the previous size just read.
#include "../base/errors.hpp"
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "sweep_support.hpp"

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

void run(BenchmarkContext& ctx)
{
    const auto queue_depth = static_cast<unsigned>(ctx.params.unsigned_value("queue_depth"));
    const std::vector<std::uint32_t> sizes = sweep_block_sizes(ctx);
    const std::uint64_t amount = fitted_amount(ctx, "amount_per_size", ctx.target.size, sizes.back(),
                                               "amount read per block size");
    if (amount < sizes.back())
        throw ParameterError("amount_per_size", Failure { "error-amount-below-largest-block" });
    if (amount % ctx.target.logical_block != 0)
        throw ParameterError("amount_per_size",
                             Failure { "error-not-logical-block-multiple",
                                       { { "value", amount }, { "logical_block", ctx.target.logical_block } } });
    check_in_flight("queue_depth", 1, queue_depth, sizes.back());
    if (ctx.plan_only)
        return;

    std::vector<SweepPhase> phases;
    for (std::uint32_t size : sizes)
        phases.push_back({ size, amount / size });
    // Regions laid out one after another, wrapping round the device.
    const std::uint64_t regions = std::max<std::uint64_t>(1, ctx.target.size / amount);
    std::size_t index = 0;
    run_sweep(ctx, phases, queue_depth, [&](const SweepPhase& phase) {
        const std::uint64_t begin = (index++ % regions) * amount;
        return std::make_unique<SequentialSource>(begin, begin + amount, phase.block, false, phase.reads);
    });
}

} // namespace

BenchmarkInfo block_sweep()
{
    return {
        "block",
        "Block size read",
        "For each power-of-two block size from min_block to max_block, reads amount_per_size bytes sequentially; "
        "one bar per size (MB/s and IOPS).",
        with_common_params({
            unsigned_param("amount_per_size", "Bytes read with each block size.", 100 * MiB, 1, 1ULL << 50),
            unsigned_param("min_block", "Smallest block size in bytes; 0 means the logical block size.", 0, 0,
                           max_request_size),
            unsigned_param("max_block", "Largest block size in bytes (a power of two).", MiB, 0, max_request_size),
            unsigned_param("queue_depth", "Reads in flight.", 1, 1, 1024),
        }, Seeded::No),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
