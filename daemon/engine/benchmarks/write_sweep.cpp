// SPDX-License-Identifier: GPL-3.0-or-later
// The dd study's write block-size sweep: for each power-of-two block size
// from min_block to max_block, write amount_per_size bytes into a new file,
// `repetitions` times, each timed up to the end of its fdatasync (the study:
// sync must be inside the timing, and fewer than 9 repetitions do not show
// the spread). Per size: mean, median, min and max MB/s. Each repetition
// is one `dd if=... of=FILE bs=SIZE oflag=direct conv=fdatasync`.
#include "benchmarks.hpp"
#include "file_support.hpp"
#include "write_sweep_support.hpp"

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

void run(DirectoryContext& ctx)
{
    const std::uint64_t room = usable_space(ctx.facts);
    const std::uint64_t smallest = ctx.params.unsigned_value("min_block");
    if (room < smallest)
        throw IoError(Failure { "error-filesystem-full-no-block",
                                { { "target", ctx.result.target_name },
                                  { "free", format_bytes(ctx.facts.available_bytes) },
                                  { "block", format_bytes(smallest) } } },
                      ENOSPC);
    WriteSweepPlan plan = plan_write_sweep(ctx.params, ctx.recorder, room, "the free space");
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    if (ctx.plan_only)
        return;

    // A first file tells whether O_DIRECT works here, and its alignment.
    const bool want_direct = ctx.params.boolean("direct");
    bool direct = false;
    std::uint32_t alignment = 1;
    {
        const ScratchFile probe = open_scratch_file(ctx, want_direct, plan.amount);
        direct = probe.direct;
        alignment = probe.target.logical_block;
    }
    keep_aligned_sizes(plan, ctx.recorder, alignment, direct_io_alignment);
    explain_cache_mode(ctx, want_direct, direct);

    run_write_sweep(ctx.recorder, ctx.result, ctx.cancel, plan, seed, [&](const PassSpec& pass) {
        // A new file each time, as dd of=NEWFILE: allocation is part of
        // writing a file. The last one's blocks are freed on close, between
        // the timings.
        const ScratchFile file = open_scratch_file(ctx, direct, plan.amount);
        return sequential_pass(ctx, file.target, pass);
    });
}

std::vector<ParamSpec> params()
{
    auto list = write_sweep_params("Bytes written with each block size in each repetition (scaled down to 90 % of the "
                                   "free space when not given; the dd study used 1 GiB).");
    list.push_back(direct_param());
    list.push_back(data_seed_param());
    return list;
}

} // namespace

BenchmarkInfo write_sweep()
{
    return {
        "write-sweep",
        "Write block size",
        "For each power-of-two block size from min_block to max_block, writes amount_per_size bytes into a new "
        "scratch file `repetitions` times, each timed with its fdatasync; mean, median, min and max MB/s per size "
        "(the dd study). O_DIRECT where the filesystem allows it.",
        with_common_params(params(), Seeded::No, appending_writes_backend),
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
