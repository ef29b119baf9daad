// SPDX-License-Identifier: GPL-3.0-or-later
#include "qd_sweep_support.hpp"

#include "../base/errors.hpp"
#include "contract/kinds/qd_sweep.hpp"

#include <bit>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace qd_sweep_keys = contract::kinds::keys::qd_sweep;

namespace {

void check_power_of_two(const ParameterSet& params, std::string_view key)
{
    if (!std::has_single_bit(params.unsigned_value(key)))
        throw ParameterError(std::string(key), Failure { "error-must-be-power-of-two", {} });
}

} // namespace

std::vector<ParamSpec> qd_sweep_params(ParamSpec writes, bool on_device)
{
    // Each help a literal of its own call: po/meson.build extracts it there.
    return {
        on_device ? unsigned_param("block_size", "Bytes per request; 0 means the logical block size.", 4 * KiB, 0,
                                   max_request_size)
                  : unsigned_param("block_size", "Bytes per request, a multiple of 512.", 4 * KiB, 512,
                                   max_request_size),
        unsigned_param("max_queue_depth", "Largest queue depth per thread (a power of two).", 128, 1, 1024),
        unsigned_param("max_threads", "Largest thread count (a power of two).", 8, 1, 64),
        text_param("pattern", "Where the requests go: random offsets, or sequential (each thread its own stream).",
                   "random", { "random", "sequential" }),
        std::move(writes),
    };
}

bool QdGrid::runs(std::uint32_t threads, std::uint32_t depth) const noexcept
{
    return contract::kinds::qd_sweep_cell_runs(threads, depth, block, preserve);
}

QdGrid plan_qd_grid(const ParameterSet& params, Recorder& recorder, std::uint32_t block, bool preserve)
{
    check_power_of_two(params, "max_queue_depth");
    check_power_of_two(params, "max_threads");
    QdGrid grid;
    grid.block = block;
    grid.random = params.text("pattern") == "random";
    grid.writes = params.boolean("writes");
    grid.preserve = preserve;
    // The grid's cells past the in-flight limits are left out (and said
    // so); the first, one request on one thread, must fit.
    check_in_flight("block_size", 1, 1, block);
    if (!grid.runs(1, 1))
        throw ParameterError("block_size", Failure { "error-block-above-preserved",
                                                     { { "block", format_bytes(block) },
                                                       { "limit", format_bytes(contract::kinds::max_preserved_bytes) } } });
    grid.depths = powers_of_two(1, static_cast<std::uint32_t>(params.unsigned_value("max_queue_depth")));
    grid.thread_counts = powers_of_two(1, static_cast<std::uint32_t>(params.unsigned_value("max_threads")));
    // Each reason its own note: past the in-flight limits, or (writing
    // back) only past what the copies may keep.
    std::uint64_t past_in_flight = 0, past_preserved = 0;
    for (std::uint32_t threads : grid.thread_counts)
        for (std::uint32_t depth : grid.depths) {
            if (!contract::kinds::qd_sweep_cell_runs(threads, depth, block))
                ++past_in_flight;
            else if (!grid.runs(threads, depth))
                ++past_preserved;
        }
    if (past_in_flight > 0)
        recorder.note({ "qd-sweep-cells-left-out", { { "cells", past_in_flight }, { "limit", max_reads_in_flight } } });
    if (past_preserved > 0)
        recorder.note({ "qd-sweep-cells-left-out-preserve",
                        { { "cells", past_preserved },
                          { "limit", format_bytes(contract::kinds::max_preserved_bytes) } } });
    return grid;
}

TimedRunPlan qd_cell_plan(const ParameterSet& params, const QdCell& cell, std::uint64_t region)
{
    TimedRunPlan plan;
    plan.test = cell.test;
    plan.region = region;
    plan.warmup_ns = seconds_to_ns(params.real("warmup_s"));
    plan.duration_ns = seconds_to_ns(params.real("duration_s"));
    plan.max_bytes = params.unsigned_value("max_bytes");
    plan.seed = cell.seed;
    plan.progress_before = cell.progress_before;
    plan.progress_share = cell.progress_share;
    return plan;
}

QdCellFigures qd_cell_figures(const IoRunStats& stats)
{
    return { stats.iops(), to_us(stats.latency.percentile(0.99)), stats.cancelled };
}

void run_qd_grid(Recorder& recorder, Result& result, const QdGrid& grid, std::uint64_t seed, const QdCellRun& measure,
                 double progress_before, double progress_share)
{
    std::size_t cells = 0;
    for (std::uint32_t threads : grid.thread_counts)
        for (std::uint32_t depth : grid.depths)
            cells += grid.runs(threads, depth) ? 1 : 0;
    value_at(result.summary, qd_sweep_keys::pattern) = std::string(grid.random ? "random" : "sequential");
    value_at(result.summary, qd_sweep_keys::direction) = std::string(grid.writes ? "write" : "read");
    value_at(result.summary, qd_sweep_keys::cells) = std::uint64_t { cells };
    const double share = progress_share / static_cast<double>(cells);
    std::size_t step = 0;
    double best_iops = 0;
    for (std::uint32_t threads : grid.thread_counts) {
        const std::size_t iops = recorder.add_series({ fmt::format("iops-t{}", threads), "depth", "IOPS",
                                                       SeriesStyle::Line });
        const std::size_t p99 = recorder.add_series({ fmt::format("p99-t{}", threads), "depth", "us",
                                                      SeriesStyle::Line });
        for (std::uint32_t depth : grid.depths) {
            if (!grid.runs(threads, depth))
                continue;
            QdCell cell;
            cell.test = { grid.random, grid.block, depth, threads };
            cell.seed = seed + step;
            cell.progress_before = progress_before + share * static_cast<double>(step);
            cell.progress_share = share;
            ++step;
            const QdCellFigures figures = measure(cell);
            if (figures.cancelled)
                return;
            recorder.add_point(iops, { static_cast<double>(depth), figures.iops });
            recorder.add_point(p99, { static_cast<double>(depth), figures.p99_us });
            if (figures.iops > best_iops) {
                best_iops = figures.iops;
                value_at(result.summary, qd_sweep_keys::best_iops) = best_iops;
                value_at(result.summary, qd_sweep_keys::best_queue_depth) = std::uint64_t { depth };
                value_at(result.summary, qd_sweep_keys::best_threads) = std::uint64_t { threads };
            }
        }
    }
}

} // namespace diskbench::engine::benchmarks
