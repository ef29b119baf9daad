// SPDX-License-Identifier: GPL-3.0-or-later
#include "timed_run.hpp"

#include "../base/errors.hpp"
#include "../io/request_sources.hpp"

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

// The per-worker sources of one run. Random workers each draw from their own
// seeded stream; sequential workers each read their own slice of the region
// and wrap round it, like fio's time_based.
class Sources {
public:
    explicit Sources(const TimedRunPlan& plan)
        : plan_(plan)
    {
        for (unsigned i = 0; i < plan.test.threads; ++i)
            generators_.emplace_back(worker_seed(plan.seed, i));
    }

    std::unique_ptr<RequestSource> make(unsigned worker, std::uint64_t limit)
    {
        auto source = make_plain(worker, limit);
        if (plan_.direction != IoDirection::Mixed)
            return source;
        return std::make_unique<MixedSource>(std::move(source), plan_.mix_read_percent,
                                             worker_seed(~plan_.seed, worker));
    }

private:
    std::unique_ptr<RequestSource> make_plain(unsigned worker, std::uint64_t limit)
    {
        const ProfileTest& test = plan_.test;
        if (test.random)
            return std::make_unique<RandomSource>(generators_[worker], 0, plan_.region, test.block, test.block, limit);
        std::uint64_t slice = plan_.region / test.threads;
        slice -= slice % test.block;
        if (slice < test.block) // more threads than blocks: all share the whole region
            return std::make_unique<SequentialSource>(0, plan_.region, test.block, true, limit);
        const std::uint64_t begin = worker * slice;
        return std::make_unique<SequentialSource>(begin, begin + slice, test.block, true, limit);
    }

    const TimedRunPlan& plan_;
    std::vector<Xoshiro256StarStar> generators_;
};

} // namespace

std::vector<ParamSpec> timing_params(double duration_s, double warmup_s)
{
    return {
        real_param("duration_s", "Measured seconds per test.", duration_s, 0.05, 3600),
        real_param("warmup_s", "Unmeasured seconds before each test.", warmup_s, 0, 600),
        unsigned_param("max_bytes", "Also stop a test after this many bytes (0: time only).", 0, 0, 1ULL << 60),
    };
}

std::vector<ParamSpec> timed_run_params(double duration_s, double warmup_s)
{
    std::vector<ParamSpec> params {
        unsigned_param("region_size", "Bytes from the start of the device the tests stay in (the test area).", GiB, 1,
                       1ULL << 60),
    };
    for (auto& spec : timing_params(duration_s, warmup_s))
        params.push_back(std::move(spec));
    return params;
}

std::uint64_t timed_run_region(const BenchmarkContext& ctx, std::uint32_t largest_block)
{
    const std::uint64_t region = fitted_amount(ctx, "region_size", ctx.target.size, largest_block, "test area");
    if (region % ctx.target.logical_block != 0)
        throw ParameterError("region_size", Failure { "error-not-logical-block-multiple",
                                                      { { "value", region }, { "logical_block", ctx.target.logical_block } } });
    if (region < largest_block)
        throw ParameterError("region_size", Failure { "error-region-below-largest-block",
                                                      { { "size", format_bytes(region) },
                                                        { "block", format_bytes(largest_block) } } });
    return region;
}

IoRunStats timed_run(BenchmarkContext& ctx, const TimedRunPlan& plan)
{
    Sources sources(plan);
    const double total_ns = static_cast<double>(plan.warmup_ns + plan.duration_ns);

    IoRunSpec spec;
    spec.workers = plan.test.threads;
    spec.queue_depth = plan.test.queue_depth;
    spec.max_request_bytes = plan.test.block;
    spec.cancel = &ctx.cancel;
    spec.direction = plan.direction;
    spec.data_seed = plan.data_seed;
    spec.buffers = plan.buffers;

    if (plan.warmup_ns > 0) {
        TimeProgress progress(ctx.recorder, plan.progress_before,
                              plan.progress_share * static_cast<double>(plan.warmup_ns) / total_ns, plan.warmup_ns);
        spec.make_source = [&](unsigned worker) { return sources.make(worker, 0); };
        spec.time_limit_ns = plan.warmup_ns;
        spec.measured = false;
        spec.observer = &progress;
        const IoRunStats warmup = ctx.io.run(ctx.target, spec);
        if (warmup.cancelled)
            return warmup;
        if (plan.after_warmup)
            plan.after_warmup();
    }

    const double measured_share = plan.progress_share * static_cast<double>(plan.duration_ns) / total_ns;
    TimeProgress progress(ctx.recorder, plan.progress_before + plan.progress_share - measured_share, measured_share,
                          plan.duration_ns);
    const std::uint64_t limit_per_worker
        = plan.max_bytes ? std::max<std::uint64_t>(1, plan.max_bytes / plan.test.block / plan.test.threads) : 0;
    spec.make_source = [&](unsigned worker) { return sources.make(worker, limit_per_worker); };
    spec.time_limit_ns = plan.duration_ns;
    ObserverFunction both([&](unsigned worker, const IoCompletion& completion) {
        progress.completed(worker, completion);
        plan.observer->completed(worker, completion);
    });
    spec.observer = plan.observer ? static_cast<CompletionObserver*>(&both) : &progress;
    // A mixed run (file-profile's "mix") is left out of the block-layer
    // cross-check: the runner counts its bytes, not its reads and writes
    // apart, so the check would see reads it did not expect and writes that
    // never reached the device.
    spec.measured = plan.direction != IoDirection::Mixed;
    spec.phase = plan.test.label();
    spec.random = plan.test.random;
    return ctx.io.run(ctx.target, spec);
}

} // namespace diskbench::engine::benchmarks
