// SPDX-License-Identifier: GPL-3.0-or-later
// How a device scales with parallelism: random (or sequential) 4 KiB reads
// at queue depths 1, 2, 4 .. max on 1, 2, 4 .. max threads. A drive that only shines at
// QD32 (NVMe) and one that is flat from QD1 (a USB stick) look very
// different here, which a single QD1 figure hides.
#include "../errors.hpp"
#include "benchmarks.hpp"
#include "timed_run.hpp"

#include <bit>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const auto max_depth = static_cast<std::uint32_t>(ctx.params.unsigned_value("max_queue_depth"));
    const auto max_threads = static_cast<std::uint32_t>(ctx.params.unsigned_value("max_threads"));
    const bool random = ctx.params.text("pattern") == "random";
    const std::uint64_t region = timed_run_region(ctx, block);
    // The grid's cells past the reads-in-flight limits are left out (and
    // said so); the first, one read on one thread, must fit.
    check_in_flight("block_size", 1, 1, block);
    if (ctx.plan_only)
        return;

    const std::vector<std::uint32_t> depths = powers_of_two(1, max_depth);
    const std::vector<std::uint32_t> thread_counts = powers_of_two(1, max_threads);
    std::size_t cells = 0, left_out = 0;
    for (std::uint32_t threads : thread_counts)
        for (std::uint32_t depth : depths)
            (contract::kinds::qd_sweep_cell_runs(threads, depth, block) ? cells : left_out) += 1;
    if (left_out > 0)
        ctx.recorder.note({ "qd-sweep-cells-left-out",
                            { { "cells", std::uint64_t { left_out } },
                              { "limit", std::uint64_t { max_reads_in_flight } } } });
    ctx.result.summary["pattern"] = std::string(random ? "random" : "sequential");
    ctx.result.summary["cells"] = std::uint64_t { cells };
    const double share = 1.0 / static_cast<double>(cells);
    std::size_t step = 0;
    double best_iops = 0;
    for (std::uint32_t threads : thread_counts) {
        const std::size_t iops = ctx.recorder.add_series({ fmt::format("iops-t{}", threads), "depth", "IOPS",
                                                           SeriesStyle::Line });
        const std::size_t p99 = ctx.recorder.add_series({ fmt::format("p99-t{}", threads), "depth", "us",
                                                          SeriesStyle::Line });
        for (std::uint32_t depth : depths) {
            if (!contract::kinds::qd_sweep_cell_runs(threads, depth, block))
                continue;
            TimedRunPlan plan;
            plan.test = { random, block, depth, threads };
            plan.region = region;
            plan.warmup_ns = seconds_to_ns(ctx.params.real("warmup_s"));
            plan.duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
            plan.max_bytes = ctx.params.unsigned_value("max_bytes");
            plan.seed = ctx.params.unsigned_value("seed") + step;
            plan.progress_before = share * static_cast<double>(step);
            plan.progress_share = share;
            ++step;
            const IoRunStats stats = timed_run(ctx, plan);
            if (stats.cancelled)
                return;
            ctx.recorder.add_point(iops, { static_cast<double>(depth), stats.iops() });
            ctx.recorder.add_point(p99, { static_cast<double>(depth), to_us(stats.latency.percentile(0.99)) });
            if (stats.iops() > best_iops) {
                best_iops = stats.iops();
                ctx.result.summary["best_iops"] = best_iops;
                ctx.result.summary["best_queue_depth"] = std::uint64_t { depth };
                ctx.result.summary["best_threads"] = std::uint64_t { threads };
            }
        }
    }
}

void check_power_of_two(const BenchmarkContext& ctx, std::string_view key)
{
    if (!std::has_single_bit(ctx.params.unsigned_value(key)))
        throw ParameterError(std::string(key), "must be a power of two");
}

void run_checked(BenchmarkContext& ctx)
{
    check_power_of_two(ctx, "max_queue_depth");
    check_power_of_two(ctx, "max_threads");
    run(ctx);
}

} // namespace

BenchmarkInfo queue_depth_sweep()
{
    std::vector<ParamSpec> params {
        unsigned_param("block_size", "Bytes per read; 0 means the logical block size.", 4 * KiB, 0, max_request_size),
        unsigned_param("max_queue_depth", "Largest queue depth per thread (a power of two).", 128, 1, 1024),
        unsigned_param("max_threads", "Largest thread count (a power of two).", 8, 1, 64),
        text_param("pattern", "Where the reads go: random offsets, or sequential (each thread its own stream).",
                   "random", { "random", "sequential" }),
    };
    for (auto& spec : timed_run_params(1.0, 0.2))
        params.push_back(std::move(spec));
    return {
        "qd-sweep",
        "Queue depth sweep",
        "Random (or sequential) reads at queue depths 1, 2, 4 .. max_queue_depth on 1, 2, 4 .. max_threads "
        "threads, tiobench's matrix; series of IOPS and p99 latency against queue depth, one pair per thread "
        "count. Cells of more than 1024 reads in flight (or 1 GiB of buffers) are left out, with a note.",
        with_common_params(std::move(params)),
        run_checked,
    };
}

} // namespace diskbench::engine::benchmarks
