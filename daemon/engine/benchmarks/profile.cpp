// SPDX-License-Identifier: GPL-3.0-or-later
// The four numbers KDiskMark/CrystalDiskMark users compare: sequential and
// random reads at given queue depths and thread counts, each after a short
// warm-up, over a fixed test area. MB/s are 10^6 bytes per second, as there.
// With write=true each test is then written too, and the mixed test ends
// the run (profile_writes.hpp): CrystalDiskMark's read and write columns.
#include "../base/errors.hpp"
#include "benchmarks.hpp"
#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/profile.hpp"
#include "device_write_support.hpp"
#include "profile_options.hpp"
#include "profile_writes.hpp"
#include "timed_run.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace profile_keys = contract::kinds::keys::profile;
namespace per_test = contract::kinds::keys::per_test;

namespace {

// The read bars, a point per test at x = its index.
struct ReadBars {
    std::size_t mb_s, iops, p50, p99, p99_9;
};

// Test `index`'s reads, timed and recorded; false when cancelled.
bool read_test(BenchmarkContext& ctx, const TimedRunPlan& plan, std::size_t index, const ReadBars& bars)
{
    const IoRunStats stats = timed_run(ctx, plan);
    if (stats.cancelled)
        return false;
    const ProfileTest& test = plan.test;
    const auto x = static_cast<double>(index);
    ctx.recorder.add_point(bars.mb_s, { x, stats.megabytes_per_second() });
    ctx.recorder.add_point(bars.iops, { x, stats.iops() });
    ctx.recorder.add_point(bars.p50, { x, to_us(stats.latency.percentile(0.50)) });
    ctx.recorder.add_point(bars.p99, { x, to_us(stats.latency.percentile(0.99)) });
    ctx.recorder.add_point(bars.p99_9, { x, to_us(stats.latency.percentile(0.999)) });
    const std::string name = test.summary_key();
    ctx.result.summary[per_test::test_key(name, profile_keys::throughput_mb_s)] = stats.megabytes_per_second();
    ctx.result.summary[per_test::test_key(name, profile_keys::iops)] = stats.iops();
    ctx.result.summary[per_test::test_key(name, profile_keys::bytes)] = stats.bytes;
    ctx.result.summary[per_test::test_key(name, profile_keys::seconds)] = stats.seconds();
    ctx.result.summary[per_test::test_key(name, profile_keys::cpu_percent)] = stats.cpu_percent();
    add_latency_summary(ctx.result.summary, stats.latency, per_test::test_prefix(name));
    add_latency_cdf(ctx.recorder, test.summary_key(), stats.latency);
    return true;
}

void run(BenchmarkContext& ctx)
{
    std::string text = ctx.params.text("tests");
    if (text.empty())
        text = std::string(preset_tests(ctx.params.text("preset")));
    const auto tests = parse_profile_tests(text);
    if (!tests)
        throw ParameterError(ctx.params.given("tests") ? "tests" : "preset", Failure { "error-tests-not-a-list" });
    // Each test adds a series and a dozen summary keys: a list without end
    // would make replies larger than the bus carries.
    if (tests->size() > max_profile_tests)
        throw ParameterError("tests", Failure { "error-too-many-tests",
                                                { { "count", tests->size() }, { "limit", max_profile_tests } } });
    std::uint32_t largest = 0;
    std::vector<ProfileTest> runnable;
    for (const auto& test : *tests) {
        if (test.block % ctx.target.logical_block != 0)
            throw ParameterError("tests",
                                 Failure { "error-test-block-not-logical-multiple", { { "test", test.label() } } });
        if (test.block > ctx.target.size) {
            // A preset test on a device smaller than its block: leave it
            // out and say so; a test the caller named is an error.
            if (ctx.params.given("tests"))
                throw ParameterError("tests", Failure { "error-test-block-above-device", { { "test", test.label() } } });
            ctx.recorder.note({ "profile-test-left-out", { { "test", test.label() } } });
            continue;
        }
        check_in_flight("tests", test.threads, test.queue_depth, test.block);
        largest = std::max(largest, test.block);
        runnable.push_back(test);
    }
    if (runnable.empty())
        throw ParameterError("preset", Failure { "error-no-preset-test-fits" });
    const std::uint64_t region = timed_run_region(ctx, largest);
    ProfileWriteColumn writes(ctx, region);
    if (ctx.plan_only)
        return;

    const ReadBars bars {
        ctx.recorder.add_series({ "throughput", "test", "MB/s", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "iops", "test", "IOPS", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "latency_p50", "test", "us", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "latency_p99", "test", "us", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "latency_p99_9", "test", "us", SeriesStyle::Bar }),
    };
    writes.add_series();

    std::string labels;
    // Each timed run (a test's reads, its writes, the mixed test) an equal share.
    // (select=write keeping the data with random tests only runs none.)
    const std::size_t runs = (writes.reads() ? runnable.size() : 0) + writes.runs(runnable);
    const double share = 1.0 / static_cast<double>(std::max<std::size_t>(1, runs));
    double progress = 0;
    const double interval = ctx.params.real("interval_s");
    bool cancelled = false;
    for (std::size_t i = 0; i < runnable.size(); ++i) {
        const ProfileTest& test = runnable[i];
        if (i > 0 && !rest_between_tests(ctx.cancel, interval)) {
            cancelled = true;
            break;
        }
        labels += (labels.empty() ? "" : ",") + test.label();
        TimedRunPlan plan;
        plan.test = test;
        plan.region = region;
        plan.warmup_ns = seconds_to_ns(ctx.params.real("warmup_s"));
        plan.duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
        plan.max_bytes = ctx.params.unsigned_value("max_bytes");
        plan.seed = ctx.params.unsigned_value("seed") + i;
        plan.progress_before = progress;
        plan.progress_share = share;
        if (writes.reads() && !read_test(ctx, plan, i, bars)) {
            cancelled = true;
            break;
        }
        progress += writes.reads() ? share : 0;

        // The same test as writes, after the rest between two runs.
        if (!writes.writes(test)) {
            writes.leave_out(test);
            continue;
        }
        plan.progress_before = progress;
        if ((writes.reads() && !rest_between_tests(ctx.cancel, interval)) || !writes.write_test(i, test, plan)) {
            cancelled = true;
            break;
        }
        progress += share;
    }
    if (!cancelled && writes.mix() && rest_between_tests(ctx.cancel, interval)) {
        TimedRunPlan plan;
        plan.region = region;
        plan.warmup_ns = seconds_to_ns(ctx.params.real("warmup_s"));
        plan.duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
        plan.max_bytes = ctx.params.unsigned_value("max_bytes");
        plan.seed = ctx.params.unsigned_value("seed") + runnable.size();
        plan.progress_before = progress;
        plan.progress_share = share;
        if (writes.mixed_test(runnable.size(), plan, bars.mb_s))
            labels += ",MIX " + writes.mix()->label();
    }
    writes.finish();
    // The bar order: x of each point is the index into this list.
    value_at(ctx.result.summary, profile_keys::tests) = labels;
    value_at(ctx.result.summary, profile_keys::region_size) = region;
    value_at(ctx.result.summary, profile_keys::interval_s) = interval;
}

} // namespace

BenchmarkInfo profile()
{
    std::vector<ParamSpec> params {
        preset_param(),
        text_param("tests", "Comma-separated tests like \"SEQ1M Q8T1, RND4K Q32T16\" (K = KiB, M = MiB; Q = reads "
                            "in flight per thread, T = threads). Overrides the preset. At most 32 tests.",
                   ""),
        // A read-only run heats nothing that needs to cool: no rest unless asked.
        interval_param(0),
    };
    for (auto& spec : write_mode_params(profile_write_params(), true))
        params.push_back(std::move(spec));
    for (auto& spec : timed_run_params(5.0, 1.0))
        params.push_back(std::move(spec));
    BenchmarkInfo info {
        "profile",
        "Profiles",
        "CrystalDiskMark-style read tests: each a warm-up, then a timed run over the test area; MB/s, IOPS and "
        "latency percentiles per test. write=true adds the write column: each test written after its reads "
        "(mode=destroy: every test, new data, the queue full and one flush at the end of each, then the mixed "
        "test; mode=preserve: the sequential tests only, each range read first and written back).",
        with_common_params(std::move(params)),
        run,
    };
    // write=true makes the run a raw write in every respect (one name for daemon and clients).
    info.writes_when = contract::kinds::writes_when(info.kind);
    return info;
}

} // namespace diskbench::engine::benchmarks
