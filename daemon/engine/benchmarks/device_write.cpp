// SPDX-License-Identifier: GPL-3.0-or-later
// "Write": the write counterpart of the read profile, as GNOME Disks and
// CrystalDiskMark show it: a sequential write in large blocks at queue
// depth 1, then random 4 KiB writes at queue depth 1 and 32, each timed up
// to the end of its fdatasync. In preserve mode every write puts back what
// it overwrites, batch by batch, each synced (device_write_support.hpp); in
// destroy mode new data, the queue kept full and one fdatasync at the end
// of each test (or one each sync_every bytes).
#include "../base/errors.hpp"
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/device_write.hpp"
#include "device_write_support.hpp"
#include "profile_tests.hpp"
#include "timed_run.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;
namespace device_write_keys = contract::kinds::keys::device_write;
namespace per_test = contract::kinds::keys::per_test;

namespace {

struct WriteTest {
    ProfileTest test;
    BatchedWriteStats stats;
};

// "SEQ4M Q1T1"; a block that is no whole KiB (block_size=0 on a 512-byte
// device) in bytes: "SEQ512B Q1T1".
std::string label(const ProfileTest& test)
{
    if (test.block % 1024 == 0)
        return test.label();
    return fmt::format("{}{}B Q{}T{}", test.random ? "RND" : "SEQ", test.block, test.queue_depth, test.threads);
}

// "seq512b_q1t1": the test's part of its summary keys.
std::string summary_key(const ProfileTest& test)
{
    return per_test::test_name(label(test));
}

void record(BenchmarkContext& ctx, const std::vector<std::size_t>& bars, std::size_t index, const WriteTest& done)
{
    const auto x = static_cast<double>(index);
    const BatchedWriteStats& stats = done.stats;
    ctx.recorder.add_point(bars[0], { x, stats.megabytes_per_second() });
    ctx.recorder.add_point(bars[1], { x, stats.iops() });
    ctx.recorder.add_point(bars[2], { x, to_us(stats.latency.percentile(0.50)) });
    ctx.recorder.add_point(bars[3], { x, to_us(stats.latency.percentile(0.99)) });
    ctx.recorder.add_point(bars[4], { x, to_us(stats.latency.percentile(0.999)) });
    const std::string test = summary_key(done.test);
    ctx.result.summary[per_test::test_key(test, device_write_keys::throughput_mb_s)] = stats.megabytes_per_second();
    ctx.result.summary[per_test::test_key(test, device_write_keys::iops)] = stats.iops();
    ctx.result.summary[per_test::test_key(test, device_write_keys::bytes)] = stats.bytes;
    ctx.result.summary[per_test::test_key(test, device_write_keys::seconds)] = stats.seconds();
    add_latency_summary(ctx.result.summary, stats.latency, per_test::test_prefix(test));
}

void run(BenchmarkContext& ctx)
{
    const WriteMode mode = checked_write_mode(ctx, true);
    const SyncPlan sync = checked_sync_plan(ctx, mode);
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const std::uint64_t size = fitted_amount(ctx, "size", ctx.target.size, block, "amount written sequentially");
    if (size % ctx.target.logical_block != 0 || size < block)
        throw ParameterError("size", Failure { "error-size-not-whole-blocks",
                                               { { "logical_block", ctx.target.logical_block },
                                                 { "block", format_bytes(block) } } });
    // 4 KiB random writes, or the logical block where that is larger.
    const auto random_block = std::max<std::uint32_t>(4096, ctx.target.logical_block);
    if (random_block > ctx.target.size)
        throw ParameterError("region_size",
                             Failure { "error-device-below-one-block", { { "block", format_bytes(random_block) } } });
    std::uint64_t region = fitted_amount(ctx, "region_size", ctx.target.size, random_block, "area of random writes");
    region -= region % random_block;
    if (region < random_block)
        throw ParameterError("region_size",
                             Failure { "error-below-one-block", { { "block", format_bytes(random_block) } } });
    const std::uint64_t duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
    const std::uint64_t max_bytes = ctx.params.unsigned_value("max_bytes");
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    value_at(ctx.result.summary, device_write_keys::sequential_size) = size;
    value_at(ctx.result.summary, device_write_keys::region_size) = region;
    // Everything any test may write lies in [0, written_range_bytes).
    value_at(ctx.result.summary, common_keys::written_range_bytes) = std::max(size, region);
    if (ctx.plan_only)
        return;

    const std::vector<std::size_t> bars {
        ctx.recorder.add_series({ "throughput", "test", "MB/s", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "iops", "test", "IOPS", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "latency_p50", "test", "us", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "latency_p99", "test", "us", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "latency_p99_9", "test", "us", SeriesStyle::Bar }),
    };
    const std::size_t line = ctx.recorder.add_series({ "sequential", "B", "MB/s", SeriesStyle::Line });

    const std::vector<ProfileTest> tests {
        { false, block, 1, 1 },
        { true, random_block, 1, 1 },
        { true, random_block, 32, 1 },
    };
    std::string labels;
    const double share = 1.0 / static_cast<double>(tests.size());

    // Sequential: the batches walk [0, size); a point per batch.
    {
        std::uint64_t next = 0;
        std::uint64_t position = 0;
        BatchedWritePlan plan;
        plan.mode = mode;
        plan.sync = sync;
        plan.block = block;
        plan.data_seed = seed;
        plan.next_batch = [&](std::vector<IoRequest>& requests, std::size_t count) {
            for (; requests.size() < count && next < size; next += block)
                requests.push_back({ next, static_cast<std::uint32_t>(std::min<std::uint64_t>(block, size - next)) });
        };
        plan.batch_done = [&](std::uint64_t bytes, std::uint64_t ns) {
            ctx.recorder.add_point(line, { static_cast<double>(position), mb_per_s(bytes, ns) });
            position += bytes;
            ctx.recorder.set_progress(share * static_cast<double>(position) / static_cast<double>(size));
        };
        const WriteTest done { tests[0], batched_writes(ctx, plan) };
        count_syncs(ctx, done.stats.syncs);
        if (done.stats.cancelled)
            return;
        record(ctx, bars, 0, done);
        labels = label(tests[0]);
    }

    for (std::size_t i = 1; i < tests.size(); ++i) {
        Xoshiro256StarStar rng(worker_seed(seed, static_cast<unsigned>(i)));
        RandomSource source(rng, 0, region, random_block, random_block);
        const std::uint64_t limit = max_bytes ? std::max<std::uint64_t>(1, max_bytes / random_block) : 0;
        std::uint64_t issued = 0;
        std::uint64_t measured_ns = 0;
        BatchedWritePlan plan;
        plan.mode = mode;
        plan.sync = sync;
        plan.queue_depth = tests[i].queue_depth;
        plan.block = random_block;
        plan.data_seed = seed + i;
        plan.time_limit_ns = duration_ns;
        plan.next_batch = [&](std::vector<IoRequest>& requests, std::size_t count) {
            IoRequest request;
            while (requests.size() < count && (limit == 0 || issued < limit) && source.next(request)) {
                requests.push_back(request);
                ++issued;
            }
        };
        plan.batch_done = [&](std::uint64_t, std::uint64_t ns) {
            measured_ns += ns;
            const double fraction = std::min(1.0, static_cast<double>(measured_ns) / static_cast<double>(duration_ns));
            ctx.recorder.set_progress(share * (static_cast<double>(i) + fraction));
        };
        const WriteTest done { tests[i], batched_writes(ctx, plan) };
        count_syncs(ctx, done.stats.syncs);
        if (done.stats.cancelled)
            break;
        record(ctx, bars, i, done);
        labels += "," + label(tests[i]);
    }
    // The bar order: x of each point is the index into this list.
    value_at(ctx.result.summary, device_write_keys::tests) = labels;
}

} // namespace

BenchmarkInfo device_write()
{
    BenchmarkInfo info {
        "device-write",
        "Write",
        "Writes to the device: a sequential write in block_size writes at queue depth 1, then random 4 KiB writes "
        "at queue depth 1 and 32 for duration_s each, each timed up to the end of its fdatasync; MB/s, IOPS and "
        "latency percentiles per test. mode=preserve reads each range first and writes the same bytes back in "
        "batches, each synced (only the writes and syncs are timed); mode=destroy writes new data with the queue "
        "kept full and one fdatasync at the end of each test (or one each sync_every bytes).",
        with_common_params(write_mode_params({
            unsigned_param("size", "Bytes written sequentially from the start of the device (scaled down to the "
                                   "device when not given).",
                           GiB, 1, 1ULL << 60),
            unsigned_param("block_size", "Bytes per sequential write; 0 means the logical block size.", 4 * MiB, 0,
                           max_request_size),
            unsigned_param("region_size", "Bytes from the start of the device the random writes stay in (scaled "
                                          "down to the device when not given).",
                           GiB, 1, 1ULL << 60),
            real_param("duration_s", "Measured seconds (writes and syncs) per random test.", 5.0, 0.05, 3600),
            unsigned_param("max_bytes", "Also stop a random test after this many bytes (0: time only).", 0, 0,
                           1ULL << 60),
            sync_every_param(),
        }, true)),
        run,
    };
    info.writes_device = true;
    return info;
}

} // namespace diskbench::engine::benchmarks
