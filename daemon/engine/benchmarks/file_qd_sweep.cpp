// SPDX-License-Identifier: GPL-3.0-or-later
// The queue-depth sweep in a folder: tiobench's matrix (qd_sweep_support.hpp)
// on a test file in the chosen folder, filled first (not timed), reading
// or (`writes`) writing, each cell a warm-up and a timed run on the file.
// In a folder the writes go to the benchmark's own file, so they need
// nothing kept: each cell's writes end with an fdatasync inside its time,
// as file-profile's do, and the file is dropped from the page cache after
// them so a buffered run's next cell does not read memory. The file has no
// name (or is unlinked at once), so it is gone when the job ends.
#include "benchmarks.hpp"
#include "qd_sweep_support.hpp"
#include "measured_file.hpp"
#include "timed_run.hpp"

#include "../base/clock.hpp"
#include "contract/kinds/file_qd_sweep.hpp"

#include <fcntl.h>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace file_qd_sweep_keys = contract::kinds::keys::file_qd_sweep;

namespace {

QdCellFigures file_cell(DirectoryContext& ctx, BenchmarkContext& on_file, const ScratchFile& file,
                        std::uint64_t size, bool writes, const QdCell& cell)
{
    TimedRunPlan plan = qd_cell_plan(ctx.params, cell, size);
    plan.data_seed = cell.seed;
    plan.direction = writes ? IoDirection::Write : IoDirection::Read;
    try {
        // The warm-up's writes are synced outside the cell's time, so the
        // measured sync is the measured writes' alone.
        if (writes)
            plan.after_warmup = [&] { sync_data(file.target); };
        IoRunStats stats = timed_run(on_file, plan);
        if (writes && !stats.cancelled && stats.operations > 0) {
            // The sync is the writes' last part: a volatile cache below
            // (or the page cache of a buffered run) must not count as done.
            sync_data(file.target);
            stats.finished_ns = monotonic_ns();
        }
        // A buffered run's next cell reads the file, not the page cache
        // (what explain_cache_mode's warning says).
        ::posix_fadvise(file.target.fd.get(), 0, 0, POSIX_FADV_DONTNEED);
        return qd_cell_figures(stats);
    } catch (const IoError& error) {
        throw explained(ctx, error);
    }
}

void run(DirectoryContext& ctx)
{
    const auto block = static_cast<std::uint32_t>(ctx.params.unsigned_value("block_size"));
    if (block % 512 != 0)
        throw ParameterError("block_size", Failure { "error-multiple-of-bytes", { { "bytes", 512 } } });
    const bool writes = ctx.params.boolean("writes");
    const QdGrid grid = plan_qd_grid(ctx.params, ctx.recorder, block, false);
    const std::uint64_t size = test_file_size(ctx, block, "block_size");
    if (ctx.plan_only)
        return;

    const bool want_direct = ctx.params.boolean("direct");
    ScratchFile file = open_scratch_file(ctx, want_direct, size);
    if (file.direct && block % file.target.logical_block != 0)
        throw ParameterError("block_size", Failure { "error-not-direct-io-multiple",
                                                     { { "value", format_bytes(block) },
                                                       { "alignment", file.target.logical_block } } });
    explain_cache_mode(ctx, want_direct, file.direct, BufferedUse::Profile);
    value_at(ctx.result.summary, file_qd_sweep_keys::file_size_bytes) = size;
    fill_test_file(ctx, file, size, nullptr);
    if (ctx.cancel.cancelled())
        return;

    BenchmarkContext on_file { file.target, ctx.params, ctx.recorder, ctx.result, ctx.cancel, ctx.io };
    run_qd_grid(
        ctx.recorder, ctx.result, grid, ctx.params.unsigned_value("seed"),
        [&](const QdCell& cell) { return file_cell(ctx, on_file, file, size, writes, cell); }, test_file_fill_share,
        1.0 - test_file_fill_share);
}

} // namespace

BenchmarkInfo file_qd_sweep()
{
    std::vector<ParamSpec> params = qd_sweep_params(bool_param(
        "writes",
        "Write instead of read: the cells overwrite the test file in place, each cell's writes synced within its "
        "time.",
        false),
        false);
    params.push_back(test_file_size_param());
    params.push_back(direct_param());
    for (auto& spec : timing_params(1.0, 0.2))
        params.push_back(std::move(spec));
    return {
        "file-qd-sweep",
        "Queue depth sweep",
        "The queue depth sweep on a test file in the chosen folder: the file is filled first (not timed), then "
        "random (or sequential) reads, or writes with writes=true, at queue depths 1, 2, 4 .. max_queue_depth on "
        "1, 2, 4 .. max_threads threads (O_DIRECT where the filesystem allows it), each cell a warm-up and a timed "
        "run; series of IOPS and p99 latency against queue depth, one pair per thread count. The file has no name "
        "and vanishes when the run ends, even if it crashes.",
        with_common_params(std::move(params)),
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
