// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_support.hpp"

#include "../base/errors.hpp"
#include "contract/kinds/block.hpp"

#include <bit>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace block_keys = contract::kinds::keys::block;

std::vector<std::uint32_t> sweep_block_sizes(const BenchmarkContext& ctx)
{
    const std::uint32_t smallest = checked_block_size(ctx, "min_block");
    std::uint32_t largest = 0;
    if (ctx.params.unsigned_value("max_block") > ctx.target.size && !ctx.params.given("max_block")) {
        // A device smaller than the default largest block: stop at its size.
        largest = static_cast<std::uint32_t>(std::bit_floor(ctx.target.size));
        ctx.recorder.note({ "largest-block-scaled-to-device", { { "block", format_bytes(largest) } } });
    } else {
        largest = checked_block_size(ctx, "max_block");
    }
    if (std::has_single_bit(smallest) == false || std::has_single_bit(largest) == false)
        throw ParameterError(std::has_single_bit(smallest) ? "max_block" : "min_block",
                             Failure { "error-must-be-power-of-two" });
    if (largest < smallest)
        throw ParameterError("max_block",
                             Failure { "error-max-below-min-block", { { "max", largest }, { "min", smallest } } });
    return powers_of_two(smallest, largest);
}

void run_sweep(BenchmarkContext& ctx, const std::vector<SweepPhase>& phases, unsigned queue_depth,
               const std::function<std::unique_ptr<RequestSource>(const SweepPhase&)>& make_source)
{
    const std::size_t throughput = ctx.recorder.add_series({ "throughput", "B", "MB/s", SeriesStyle::Bar });
    const std::size_t iops = ctx.recorder.add_series({ "iops", "B", "IOPS", SeriesStyle::Bar });

    std::uint64_t planned = 0;
    for (const auto& phase : phases)
        planned += phase.reads;
    std::uint64_t done = 0;
    ObserverFunction observer([&](unsigned, const IoCompletion&) {
        ctx.recorder.set_progress(static_cast<double>(++done) / static_cast<double>(planned));
    });

    LatencyHistogram all;
    std::uint64_t bytes = 0;
    std::uint64_t operations = 0;
    double best = 0;
    double worst = 0;
    for (const auto& phase : phases) {
        IoRunSpec spec;
        spec.queue_depth = queue_depth;
        spec.max_request_bytes = phase.block;
        spec.make_source = [&](unsigned) { return make_source(phase); };
        spec.observer = &observer;
        spec.cancel = &ctx.cancel;
        spec.phase = "the " + format_bytes(phase.block) + " reads";
        spec.random = phase.random;
        const IoRunStats stats = ctx.io.run(ctx.target, spec);
        if (stats.cancelled)
            break;
        const double rate = stats.megabytes_per_second();
        ctx.recorder.add_point(throughput, { static_cast<double>(phase.block), rate });
        ctx.recorder.add_point(iops, { static_cast<double>(phase.block), stats.iops() });
        best = std::max(best, rate);
        worst = operations == 0 ? rate : std::min(worst, rate);
        all.merge(stats.latency);
        add_latency_cdf(ctx.recorder, std::to_string(phase.block), stats.latency); // "cdf-4096"
        bytes += stats.bytes;
        operations += stats.operations;
    }
    value_at(ctx.result.summary, block_keys::reads) = operations;
    value_at(ctx.result.summary, block_keys::bytes) = bytes;
    value_at(ctx.result.summary, block_keys::throughput_max_mb_s) = best;
    value_at(ctx.result.summary, block_keys::throughput_min_mb_s) = worst;
    add_latency_summary(ctx.result.summary, all);
}

} // namespace diskbench::engine::benchmarks
