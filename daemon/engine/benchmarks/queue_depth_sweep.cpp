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

// A cell's requests, batch by batch: request i of a batch from thread
// i % threads's stream (batched_writes deals them out that way), random
// places in the region or each thread's own slice of it, round and round.
// The warm-up and the measured run draw from the same streams, as
// timed_run's reads do.
class CellRequests {
public:
    CellRequests(const QdCell& cell, std::uint64_t region) : block_(cell.test.block), generator_(cell.seed)
    {
        const unsigned threads = cell.test.threads;
        if (cell.test.random) {
            streams_.push_back(std::make_unique<RandomSource>(generator_, 0, region, block_, block_));
            return;
        }
        std::uint64_t slice = region / threads;
        slice -= slice % block_;
        for (unsigned i = 0; i < threads; ++i) {
            if (slice < block_) // more threads than blocks: all share the whole region
                streams_.push_back(std::make_unique<SequentialSource>(0, region, block_, true));
            else
                streams_.push_back(std::make_unique<SequentialSource>(i * slice, (i + 1) * slice, block_, true));
        }
    }

    // From here on at most `max_bytes` (0: no bound), counted per thread as
    // timed_run counts them: each thread max_bytes / block / threads, at
    // least one.
    void limit(std::uint64_t max_bytes, unsigned threads)
    {
        issued_ = 0;
        limit_ = max_bytes ? std::max<std::uint64_t>(1, max_bytes / block_ / threads) * threads : 0;
    }

    void next_batch(std::vector<IoRequest>& requests, std::size_t count)
    {
        for (std::size_t i = 0; i < count && (limit_ == 0 || issued_ < limit_); ++i, ++issued_) {
            IoRequest request;
            if (!streams_[i % streams_.size()]->next(request))
                return;
            requests.push_back(request);
        }
    }

private:
    std::uint32_t block_;
    std::uint64_t limit_ = 0;
    std::uint64_t issued_ = 0;
    Xoshiro256StarStar generator_;
    std::vector<std::unique_ptr<RequestSource>> streams_;
};

QdCellFigures preserved_write_cell(BenchmarkContext& ctx, const QdCell& cell, std::uint64_t region)
{
    const std::uint64_t warmup_ns = seconds_to_ns(ctx.params.real("warmup_s"));
    const std::uint64_t duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
    const double total_ns = static_cast<double>(warmup_ns + duration_ns);
    CellRequests requests(cell, region);
    BatchedWritePlan plan;
    plan.mode = WriteMode::Preserve;
    plan.workers = cell.test.threads;
    plan.queue_depth = cell.test.queue_depth;
    plan.block = cell.test.block;
    plan.random = cell.test.random;
    plan.phase = cell.test.label();
    plan.next_batch = [&](std::vector<IoRequest>& batch, std::size_t count) { requests.next_batch(batch, count); };
    // The bar moves with the time written, warm-up included (the reads
    // before each batch take about as long again, unseen).
    std::uint64_t done_ns = 0;
    plan.batch_done = [&](std::uint64_t, std::uint64_t ns) {
        done_ns += ns;
        ctx.recorder.set_progress(cell.progress_before
                                  + cell.progress_share * std::min(1.0, static_cast<double>(done_ns) / total_ns));
    };
    if (warmup_ns > 0) {
        plan.time_limit_ns = warmup_ns;
        plan.measured = false;
        if (batched_writes(ctx, plan).cancelled)
            return { 0, 0, true };
    }
    requests.limit(ctx.params.unsigned_value("max_bytes"), cell.test.threads);
    plan.time_limit_ns = duration_ns;
    plan.measured = true;
    const BatchedWriteStats stats = batched_writes(ctx, plan);
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
