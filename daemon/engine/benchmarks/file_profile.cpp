// SPDX-License-Identifier: GPL-3.0-or-later
// CrystalDiskMark's and KDiskMark's main screen for a folder: a test file
// of `file_size` bytes in the scratch directory, filled once (not timed),
// then every profile test (profile_tests.hpp) run on it as a read and as a
// write, each after a warm-up, like `profile` on a device; optionally a
// mixed test (random requests, a share of them writes), like their "Mix"
// mode and fio's rw=randrw with rwmixread. `select` keeps only the reads,
// the writes or the mixed test (CrystalDiskMark's test mode); `interval_s`
// rests between two runs (its Interval, 5 s, for an SSD's cache to empty). The file has no name (or is
// unlinked at once), so it is gone when the job ends, even after a crash.
//
// Writes overwrite the filled file in place, as the tools users compare
// with do; each write test ends with an fdatasync inside its time, so data
// a volatile cache below still held counts. MB/s are 10^6 bytes per second.
#include "../base/clock.hpp"
#include "../io/io_buffers.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/file_profile.hpp"
#include "direction_tally.hpp"
#include "file_support.hpp"
#include "profile_options.hpp"
#include "measured_file.hpp"
#include "timed_run.hpp"

#include <fcntl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace file_profile_keys = contract::kinds::keys::file_profile;
namespace per_test = contract::kinds::keys::per_test;

namespace {

// Every write of a `data=zeros` run sends these bytes: one zeroed buffer
// for all requests, which only the kernel reads. (A mixed run's reads land
// in it too; they read zeros, as the file holds nothing else.)
class ZeroBuffers final : public RequestBuffers {
public:
    ZeroBuffers(std::uint32_t size, std::size_t alignment)
        : buffers_(1, size, alignment)
    {
        std::memset(buffers_.slot(0), 0, size);
    }
    [[nodiscard]] std::byte* buffer_for(const IoRequest&) const override { return buffers_.slot(0); }

private:
    IoBuffers buffers_;
};

struct FileTest {
    ProfileTest test;
    std::string label;      // "SEQ1M Q8T1", "MIX RND4K Q1T1"
    std::string key;        // summary prefix: "seq1m_q8t1", "mix"
    bool mixed = false;
};

// The tests `tests` names, else those of `preset`.
std::vector<ProfileTest> listed_tests(const ParameterSet& params)
{
    std::string text = params.text("tests");
    if (text.empty())
        text = std::string(preset_tests(params.text("preset")));
    const auto tests = parse_profile_tests(text);
    if (!tests)
        throw ParameterError(params.given("tests") ? "tests" : "preset", Failure { "error-tests-not-a-list", {} });
    if (tests->size() > max_profile_tests)
        throw ParameterError("tests", Failure { "error-too-many-tests",
                                                { { "count", tests->size() }, { "limit", max_profile_tests } } });
    return *tests;
}

// CrystalDiskMark's test mode: which directions run (`select`).
struct Selection {
    bool reads = true;
    bool writes = true;
    bool mixed = true; // the mixed test, when `mix` names one
};

Selection selection(const ParameterSet& params)
{
    const std::string& select = params.text("select");
    return { select == "read-write" || select == "read", select == "read-write" || select == "write",
             select == "read-write" || select == "mix" };
}

std::vector<FileTest> chosen_tests(const ParameterSet& params, const Selection& selected)
{
    std::vector<FileTest> chosen;
    if (selected.reads || selected.writes) {
        for (const auto& test : listed_tests(params))
            chosen.push_back({ test, test.label(), test.summary_key(), false });
    }
    const std::string& mix = params.text("mix");
    if (selected.mixed && !mix.empty()) {
        const auto test = parse_profile_test(mix);
        if (!test)
            throw ParameterError("mix", Failure { "error-mix-not-a-test", {} });
        chosen.push_back({ *test, "MIX " + test->label(), std::string(file_profile_keys::mix_test), true });
    }
    if (chosen.empty())
        throw ParameterError("select", Failure { "error-select-mix-without-mix", {} });
    return chosen;
}

// A direction by the name of its latency distribution's series and the
// prefix of its summary keys (contract/kinds/file_profile.hpp).
struct Direction {
    const char* name;
    std::string_view key_prefix;
};
constexpr Direction reading { "read", file_profile_keys::read_prefix };
constexpr Direction writing { "write", file_profile_keys::write_prefix };

// The figures of one direction of a test, and its latency distribution
// ("cdf-seq1m_q8t1-read").
void add_direction_summary(BenchmarkContext& ctx, const std::string& test, const Direction& direction,
                           const IoRunStats& stats)
{
    namespace keys = file_profile_keys;
    ValueMap& summary = ctx.result.summary;
    add_latency_cdf(ctx.recorder, test + "-" + direction.name, stats.latency);
    summary[keys::direction_key(test, direction.key_prefix, keys::mb_s)] = stats.megabytes_per_second();
    summary[keys::direction_key(test, direction.key_prefix, keys::iops)] = stats.iops();
    summary[keys::direction_key(test, direction.key_prefix, keys::bytes)] = stats.bytes;
    // Its latency figures follow "<test>.read_" (or "write_").
    add_latency_summary(summary, stats.latency, keys::direction_key(test, direction.key_prefix, ""));
}

void run(DirectoryContext& ctx)
{
    const Selection selected = selection(ctx.params);
    const std::vector<FileTest> tests = chosen_tests(ctx.params, selected);
    std::uint32_t largest = 0;
    for (const FileTest& t : tests) {
        check_in_flight("tests", t.test.threads, t.test.queue_depth, t.test.block);
        largest = std::max(largest, t.test.block);
    }
    const std::uint64_t size = test_file_size(ctx, largest, "tests");
    if (ctx.plan_only)
        return;

    const bool want_direct = ctx.params.boolean("direct");
    ScratchFile file = open_scratch_file(ctx, want_direct, size);
    for (const FileTest& t : tests)
        if (file.direct && t.test.block % file.target.logical_block != 0)
            throw ParameterError("tests", Failure { "error-test-not-direct-io-multiple",
                                                    { { "test", t.label },
                                                      { "value", format_bytes(t.test.block) },
                                                      { "alignment", file.target.logical_block } } });
    explain_cache_mode(ctx, want_direct, file.direct, BufferedUse::Profile);
    const bool zeros = ctx.params.text("data") == "zeros";
    const std::uint32_t zeros_size = std::max<std::uint32_t>(largest, test_file_fill_block);
    // Counted against the owner's budget like the runner's own buffers.
    const ResourceBudget::Reservation zeros_memory = ctx.io.reserve(0, zeros ? zeros_size : 0);
    const std::unique_ptr<ZeroBuffers> zero_buffers
        = zeros ? std::make_unique<ZeroBuffers>(zeros_size, file.target.memory_alignment) : nullptr;

    value_at(ctx.result.summary, file_profile_keys::file_size_bytes) = size;
    value_at(ctx.result.summary, file_profile_keys::data) = std::string(zeros ? "zeros" : "random");
    fill_test_file(ctx, file, size, zero_buffers.get());
    if (ctx.cancel.cancelled())
        return;

    // Only the directions that run get a series (the grid's columns).
    const bool any_mixed = tests.back().mixed;
    const std::size_t no_series = static_cast<std::size_t>(-1);
    const std::size_t read_series = selected.reads || any_mixed
        ? ctx.recorder.add_series({ "read", "test", "MB/s", SeriesStyle::Bar })
        : no_series;
    const std::size_t write_series = selected.writes || any_mixed
        ? ctx.recorder.add_series({ "write", "test", "MB/s", SeriesStyle::Bar })
        : no_series;
    BenchmarkContext on_file { file.target, ctx.params, ctx.recorder, ctx.result, ctx.cancel, ctx.io };
    // A run per chosen direction of each test (one for a mixed test), each an equal share.
    std::size_t runs = 0;
    for (const FileTest& t : tests)
        runs += t.mixed ? 1 : (selected.reads ? 1 : 0) + (selected.writes ? 1 : 0);
    const double share = (1.0 - test_file_fill_share) / static_cast<double>(runs);
    double progress = test_file_fill_share;

    // The rest before every timed run but the first (each direction of a
    // test is a run of its own, as in CrystalDiskMark).
    const double interval = ctx.params.real("interval_s");
    bool first_run = true;
    const auto rest = [&] { return std::exchange(first_run, false) || rest_between_tests(ctx.cancel, interval); };
    value_at(ctx.result.summary, file_profile_keys::select) = ctx.params.text("select");
    value_at(ctx.result.summary, file_profile_keys::interval_s) = interval;

    std::string labels;
    for (std::size_t i = 0; i < tests.size(); ++i) {
        const FileTest& t = tests[i];
        // The rest before the test's first run; a test a Cancel met in
        // the rest is not in the list of tests run.
        if (!rest())
            break;
        labels += (labels.empty() ? "" : ",") + t.label;
        TimedRunPlan plan;
        plan.test = t.test;
        plan.region = size;
        plan.warmup_ns = seconds_to_ns(ctx.params.real("warmup_s"));
        plan.duration_ns = seconds_to_ns(ctx.params.real("duration_s"));
        plan.max_bytes = ctx.params.unsigned_value("max_bytes");
        plan.seed = ctx.params.unsigned_value("seed") + i;
        plan.data_seed = plan.seed;
        plan.buffers = zero_buffers.get();
        plan.progress_share = share;
        const auto x = static_cast<double>(i);

        // The writes: a buffered run syncs what it left in the page cache
        // inside its time, and drops it so the next read test reads the file.
        const auto timed_write = [&](TimedRunPlan& write_plan) {
            IoRunStats stats = timed_run(on_file, write_plan);
            if (!stats.cancelled && stats.operations > 0) {
                sync_data(file.target);
                stats.finished_ns = monotonic_ns();
            }
            ::posix_fadvise(file.target.fd.get(), 0, 0, POSIX_FADV_DONTNEED);
            return stats;
        };

        try {
            if (t.mixed) {
                DirectionTally tally(t.test.threads);
                plan.direction = IoDirection::Mixed;
                plan.mix_read_percent = static_cast<unsigned>(ctx.params.unsigned_value("mix_read_percent"));
                plan.observer = &tally;
                plan.progress_before = progress;
                const IoRunStats stats = timed_write(plan);
                if (stats.cancelled)
                    break;
                progress += share;
                const IoRunStats reads = tally.stats(false, stats);
                const IoRunStats writes = tally.stats(true, stats);
                ctx.recorder.add_point(read_series, { x, reads.megabytes_per_second() });
                ctx.recorder.add_point(write_series, { x, writes.megabytes_per_second() });
                add_direction_summary(on_file, t.key, reading, reads);
                add_direction_summary(on_file, t.key, writing, writes);
                ctx.result.summary[per_test::test_key(t.key, file_profile_keys::total_mb_s)]
                    = stats.megabytes_per_second();
                ctx.result.summary[per_test::test_key(t.key, file_profile_keys::read_percent)]
                    = std::uint64_t { plan.mix_read_percent };
                continue;
            }
            if (selected.reads) {
                plan.direction = IoDirection::Read;
                plan.buffers = nullptr; // reads land in the workers' own buffers
                plan.progress_before = progress;
                const IoRunStats reads = timed_run(on_file, plan);
                if (reads.cancelled)
                    break;
                progress += share;
                ctx.recorder.add_point(read_series, { x, reads.megabytes_per_second() });
                add_direction_summary(on_file, t.key, reading, reads);
            }
            // The rest between the test's reads and its writes.
            if (selected.writes && (!selected.reads || rest())) {
                plan.direction = IoDirection::Write;
                plan.buffers = zero_buffers.get();
                plan.progress_before = progress;
                const IoRunStats writes = timed_write(plan);
                if (writes.cancelled)
                    break;
                progress += share;
                ctx.recorder.add_point(write_series, { x, writes.megabytes_per_second() });
                add_direction_summary(on_file, t.key, writing, writes);
            }
        } catch (const IoError& error) {
            throw explained(ctx, error);
        }
    }
    // The grid's rows: x of each point is the index into this list.
    value_at(ctx.result.summary, file_profile_keys::tests) = labels;
}

} // namespace

BenchmarkInfo file_profile()
{
    std::vector<ParamSpec> params {
        preset_param(),
        text_param("tests", "Comma-separated tests like \"SEQ1M Q8T1, RND4K Q32T16\" (K = KiB, M = MiB; Q = requests "
                            "in flight per thread, T = threads). Overrides the preset. At most 32 tests.",
                   ""),
        text_param("mix", "A mixed test run after the others, like \"RND4K Q1T1\": random requests of which "
                          "mix_read_percent are reads and the rest writes; empty for none.",
                   "RND4K Q1T1"),
        unsigned_param("mix_read_percent", "Percent of the mixed test's requests that read.", 70, 0, 100),
        text_param("select", "Which tests run, CrystalDiskMark's test mode: read-write (each test as reads and as "
                             "writes, then the mixed test), read, write, or mix (only the mixed test).",
                   "read-write", { "read-write", "read", "write", "mix" }),
        // Writes fill an SSD's SLC cache and warm it: CrystalDiskMark's
        // own default rest between tests.
        interval_param(5),
        test_file_size_param(),
        text_param("data", "What the file is filled with and the writes send: random (incompressible) or zeros "
                           "(to see what a compressing filesystem makes of them).",
                   "random", { "random", "zeros" }),
        direct_param(),
        real_param("duration_s", "Measured seconds per test and direction.", 5.0, 0.05, 3600),
        real_param("warmup_s", "Unmeasured seconds before each test and direction.", 1.0, 0, 600),
        unsigned_param("max_bytes", "Also stop a test after this many bytes (0: time only).", 0, 0, 1ULL << 60),
    };
    return {
        "file-profile",
        "Profiles",
        "CrystalDiskMark-style tests on a test file in the chosen folder: the file is filled first (not timed), then "
        "each test runs as reads and as writes (O_DIRECT where the filesystem allows it), each a warm-up and a timed "
        "run, plus a mixed test (`select` keeps only some), with interval_s of rest between runs; MB/s, IOPS and "
        "latency percentiles per test and direction. The file has no name and vanishes when the run ends, even if "
        "it crashes.",
        with_common_params(std::move(params)),
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
