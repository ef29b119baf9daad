// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_writes.hpp"

#include "file_support.hpp"

#include <algorithm>

namespace diskbench::engine::benchmarks {

TestRequests::TestRequests(const ProfileTest& test, std::uint64_t seed, std::uint64_t region)
    : block_(test.block), generator_(seed)
{
    const unsigned threads = test.threads;
    if (test.random) {
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

void TestRequests::limit(std::uint64_t max_bytes, unsigned threads)
{
    issued_ = 0;
    limit_ = max_bytes ? std::max<std::uint64_t>(1, max_bytes / block_ / threads) * threads : 0;
}

void TestRequests::next_batch(std::vector<IoRequest>& requests, std::size_t count)
{
    for (std::size_t i = 0; i < count && (limit_ == 0 || issued_ < limit_); ++i, ++issued_) {
        IoRequest request;
        if (!streams_[i % streams_.size()]->next(request))
            return;
        requests.push_back(request);
    }
}

BatchedWriteStats preserved_test_writes(BenchmarkContext& ctx, const TestWritePlan& test_plan)
{
    const double total_ns = static_cast<double>(test_plan.warmup_ns + test_plan.duration_ns);
    TestRequests requests(test_plan.test, test_plan.seed, test_plan.region);
    BatchedWritePlan plan;
    plan.mode = WriteMode::Preserve;
    plan.workers = test_plan.test.threads;
    plan.queue_depth = test_plan.test.queue_depth;
    plan.block = test_plan.test.block;
    plan.random = test_plan.test.random;
    plan.phase = test_plan.test.label();
    plan.next_batch = [&](std::vector<IoRequest>& batch, std::size_t count) { requests.next_batch(batch, count); };
    // The bar moves with the time written, warm-up included (the reads
    // before each batch take about as long again, unseen).
    std::uint64_t done_ns = 0;
    plan.batch_done = [&](std::uint64_t, std::uint64_t ns) {
        done_ns += ns;
        ctx.recorder.set_progress(test_plan.progress_before
                                  + test_plan.progress_share * std::min(1.0, static_cast<double>(done_ns) / total_ns));
    };
    std::uint64_t syncs = 0;
    if (test_plan.warmup_ns > 0) {
        plan.time_limit_ns = test_plan.warmup_ns;
        plan.measured = false;
        const BatchedWriteStats warmup = batched_writes(ctx, plan);
        syncs += warmup.syncs;
        if (warmup.cancelled) {
            BatchedWriteStats cancelled;
            cancelled.cancelled = true;
            cancelled.syncs = syncs;
            return cancelled;
        }
    }
    requests.limit(test_plan.max_bytes, test_plan.test.threads);
    plan.time_limit_ns = test_plan.duration_ns;
    plan.measured = true;
    BatchedWriteStats stats = batched_writes(ctx, plan);
    stats.syncs += syncs;
    return stats;
}

IoRunStats destroyed_test_writes(BenchmarkContext& ctx, TimedRunPlan plan, std::uint64_t& syncs)
{
    // The warm-up's writes go to the medium before the clock starts, so
    // the measured run's flush is of its own writes only.
    plan.after_warmup = [&] {
        sync_data(ctx.target);
        ++syncs;
    };
    IoRunStats stats = timed_run(ctx, plan);
    if (!stats.cancelled && stats.operations > 0) {
        sync_data(ctx.target);
        ++syncs;
        stats.finished_ns = monotonic_ns();
    }
    return stats;
}

} // namespace diskbench::engine::benchmarks
