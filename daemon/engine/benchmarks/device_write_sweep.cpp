// SPDX-License-Identifier: GPL-3.0-or-later
// "Write sweep": the dd study's block-size sweep on the raw device, as
// `dd if=... of=/dev/sdX bs=SIZE count=... oflag=direct conv=fdatasync`:
// for each power-of-two block size, amount_per_size bytes from the start
// of the device, `repetitions` times, each timed up to the end of its
// fdatasync. The same statistics and series as the filesystem write-sweep
// (write_sweep_support.hpp). Destroy only: reading back first would make
// each repetition a different measurement from dd's.
#include "../base/errors.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/common_keys.hpp"
#include "device_write_support.hpp"
#include "file_support.hpp"
#include "write_sweep_support.hpp"

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;

namespace {

void run(BenchmarkContext& ctx)
{
    // Each repetition ends with one fdatasync, as dd's conv=fdatasync.
    checked_sync_plan(ctx, checked_write_mode(ctx, false));
    WriteSweepPlan plan = plan_write_sweep(ctx.params, ctx.recorder, ctx.target.size, "the device");
    keep_aligned_sizes(plan, ctx.recorder, ctx.target.logical_block, device_logical_block);
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    // Everything the sweep writes lies in [0, written_range_bytes).
    value_at(ctx.result.summary, common_keys::written_range_bytes) = plan.amount;
    if (ctx.plan_only)
        return;

    const PassEnvironment env { ctx.recorder, ctx.cancel, ctx.io };
    run_write_sweep(ctx.recorder, ctx.result, ctx.cancel, plan, seed,
                    [&](const PassSpec& pass) { return sequential_pass(env, ctx.target, pass); });
}

} // namespace

BenchmarkInfo device_write_sweep()
{
    BenchmarkInfo info {
        "device-write-sweep",
        "Write sweep",
        "Destroys data: for each power-of-two block size from min_block to max_block, writes amount_per_size bytes "
        "from the start of the device `repetitions` times, each timed with its fdatasync; mean, median, min and max "
        "MB/s per size (the dd study). Needs mode=destroy and confirm.",
        with_common_params(write_mode_params(write_sweep_params("Bytes written from the start of the device with each "
                                                                "block size in each repetition (scaled down to the "
                                                                "device when not given; the dd study used 1 GiB)."),
                                             false),
                           Seeded::No),
        run,
    };
    info.params.push_back(data_seed_param());
    info.writes_device = true;
    return info;
}

} // namespace diskbench::engine::benchmarks
