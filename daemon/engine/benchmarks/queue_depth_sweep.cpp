// SPDX-License-Identifier: GPL-3.0-or-later
// How a device scales with parallelism: random (or sequential) 4 KiB reads
// at queue depths 1, 2, 4 .. max on 1, 2, 4 .. max threads. A drive that only shines at
// QD32 (NVMe) and one that is flat from QD1 (a USB stick) look very
// different here, which a single QD1 figure hides.
//
// With `writes` the cells write instead, in preserve mode as GNOME Disks
// writes: each batch of a cell's requests is read first (not timed), then
// written back unchanged by the cell's threads at its queue depth, and
// synced; the writes with their sync are the cell's time. The run is then a
// device write (BenchmarkInfo::writes_when): the write permission, an
// unused device, an exclusive open.
#include "benchmarks.hpp"
#include "device_write_support.hpp"
#include "qd_sweep_support.hpp"
#include "test_writes.hpp"
#include "timed_run.hpp"

#include "../io/request_sources.hpp"
#include "contract/kinds/common_keys.hpp"

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;

namespace {

QdCellFigures read_cell(BenchmarkContext& ctx, const QdCell& cell, std::uint64_t region)
{
    return qd_cell_figures(timed_run(ctx, qd_cell_plan(ctx.params, cell, region)));
}

QdCellFigures preserved_write_cell(BenchmarkContext& ctx, const QdCell& cell, std::uint64_t region)
{
    TestWritePlan plan;
    plan.test = cell.test;
    plan.seed = cell.seed;
    plan.region = region;
    plan.warmup_ns = seconds_to_ns(ctx.params.real("warmup_s"));
    plan.duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
    plan.max_bytes = ctx.params.unsigned_value("max_bytes");
    plan.progress_before = cell.progress_before;
    plan.progress_share = cell.progress_share;
    const BatchedWriteStats stats = preserved_test_writes(ctx, plan);
    return { stats.iops(), to_us(stats.latency.percentile(0.99)), stats.cancelled };
}

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const bool writes = ctx.params.boolean("writes");
    const std::uint64_t region = timed_run_region(ctx, block);
    const QdGrid grid = plan_qd_grid(ctx.params, ctx.recorder, block, writes);
    if (ctx.plan_only)
        return;
    if (writes) {
        value_at(ctx.result.summary, common_keys::mode) = std::string("preserve");
        // Everything the writes touch lies in [0, written_range_bytes).
        value_at(ctx.result.summary, common_keys::written_range_bytes) = region;
    }
    run_qd_grid(ctx.recorder, ctx.result, grid, ctx.params.unsigned_value("seed"), [&](const QdCell& cell) {
        return writes ? preserved_write_cell(ctx, cell, region) : read_cell(ctx, cell, region);
    });
}

} // namespace

BenchmarkInfo queue_depth_sweep()
{
    std::vector<ParamSpec> params = qd_sweep_params(
        bool_param("writes",
                   "Write instead of read, keeping the data: each batch of a cell's requests is read first (not "
                   "timed), written back unchanged and synced; the writes and the sync are timed. Needs the write "
                   "permission and an unused device.",
                   false),
        true);
    for (auto& spec : timed_run_params(1.0, 0.2))
        params.push_back(std::move(spec));
    BenchmarkInfo info {
        "qd-sweep",
        "Queue depth sweep",
        "Random (or sequential) reads at queue depths 1, 2, 4 .. max_queue_depth on 1, 2, 4 .. max_threads "
        "threads, tiobench's matrix; series of IOPS and p99 latency against queue depth, one pair per thread "
        "count. With writes=true the cells write instead, keeping the data (preserve mode, each batch synced). "
        "Cells of more than 1024 requests in flight (or 1 GiB of buffers; 64 MiB when writing) are left out, "
        "with a note.",
        with_common_params(std::move(params)),
        run,
    };
    info.writes_when = contract::kinds::writes_when(info.kind); // one name for daemon and clients
    return info;
}

} // namespace diskbench::engine::benchmarks
