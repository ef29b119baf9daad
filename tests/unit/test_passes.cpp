// SPDX-License-Identifier: GPL-3.0-or-later
// Passes (passes.hpp): the merging arithmetic with known numbers, then real
// runs on a loop device: every pass's figures as their own series, the
// summary's median/min/max/CV taken from exactly those, and a pass slowed
// down on purpose raising the spread warning.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "competing_io.hpp"
#include "io/target.hpp"
#include "passes.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "scratch.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

double median_of_three(double a, double b, double c)
{
    return std::max(std::min(a, b), std::min(std::max(a, b), c));
}

// A sink that, besides recording, loads the device during pass 2 only: the
// competitor starts when pass 2 declares its first series (before any of
// its I/O) and stops when pass 3 does.
class SlowSecondPass final : public SampleSink {
public:
    SlowSecondPass(RecordingSink& record, std::string device, std::uint64_t size)
        : record_(record), device_(std::move(device)), size_(size) {}
    void series_added(std::size_t index, const SeriesInfo& info) override
    {
        if (info.name == "throughput.pass2")
            competitor_.emplace(device_, size_);
        if (info.name == "throughput.pass3")
            competitor_.reset();
        record_.series_added(index, info);
    }
    void point_added(std::size_t index, const SeriesPoint& point) override { record_.point_added(index, point); }
    void progress_changed(double progress) override { record_.progress_changed(progress); }

private:
    RecordingSink& record_;
    std::string device_;
    std::uint64_t size_;
    std::optional<CompetingIo> competitor_;
};

Result run_profile(const std::string& device, ValueMap params, SampleSink& sink)
{
    const BenchmarkInfo* info = find_benchmark("profile");
    REQUIRE(info != nullptr);
    const Target target = open_target_for_read(device);
    CancelToken cancel;
    return run_benchmark(*info, target, validate_request(*info, params), &sink, cancel);
}

} // namespace

TEST_CASE("spread over passes: median, min, max, sample CV", "[passes]")
{
    const PassSpread spread = spread_of({ 110, 90, 100 });
    CHECK(spread.median == 100);
    CHECK(spread.minimum == 90);
    CHECK(spread.maximum == 110);
    CHECK(spread.cv_percent == Approx(10.0)); // sample deviation 10 over mean 100
    CHECK(spread_of({ 1, 2, 3, 4 }).median == 2.5);
    CHECK(spread_of({ 42 }).cv_percent == 0);
}

TEST_CASE("merged summaries: median headline, spread keys for figures, warning over 5 %", "[passes]")
{
    std::vector<ValueMap> passes {
        { { "a.throughput_mb_s", 100.0 }, { "a.iops", 25.0 }, { "b.iops", 1000.0 }, { "bytes", std::uint64_t { 10 } }, { "tests", std::string("x") } },
        { { "a.throughput_mb_s", 120.0 }, { "a.iops", 30.0 }, { "b.iops", 1010.0 }, { "bytes", std::uint64_t { 30 } }, { "tests", std::string("y") } },
        { { "a.throughput_mb_s", 80.0 }, { "a.iops", 20.0 }, { "b.iops", 990.0 }, { "bytes", std::uint64_t { 20 } }, { "tests", std::string("z") } },
    };
    std::vector<diskbench::contract::Message> warnings;
    const ValueMap merged = merge_pass_summaries(passes, warnings);
    CHECK(std::get<double>(merged.at("a.throughput_mb_s")) == 100.0);
    CHECK(std::get<double>(merged.at("a.throughput_mb_s_min")) == 80.0);
    CHECK(std::get<double>(merged.at("a.throughput_mb_s_max")) == 120.0);
    CHECK(std::get<double>(merged.at("a.throughput_mb_s_cv_percent")) == Approx(20.0));
    CHECK(std::get<double>(merged.at("b.iops_cv_percent")) == Approx(1.0));
    // Counts keep their type and get no spread keys; text is the last pass's.
    CHECK(std::get<std::uint64_t>(merged.at("bytes")) == 20);
    CHECK_FALSE(merged.contains("bytes_min"));
    CHECK(std::get<std::string>(merged.at("tests")) == "z");
    // b.iops varied 1 %: no warning; a.iops varied 20 % like its test's
    // throughput, which already says so.
    CHECK(std::get<double>(merged.at("a.iops_cv_percent")) == Approx(20.0));
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].id == "passes-varied");
    CHECK(diskbench::contract::english_text(warnings[0])
          == "a.throughput_mb_s: results varied 20 % between passes (80 to 120 over 3 passes)");
}

TEST_CASE("best of the passes: the highest rate and the lowest latency, other numbers their median", "[passes]")
{
    const std::vector<ValueMap> passes {
        { { "a.throughput_mb_s", 100.0 }, { "a.iops", 25.0 }, { "a.latency_p99_us", 80.0 }, { "a.seconds", 5.0 }, { "bytes", std::uint64_t { 10 } } },
        { { "a.throughput_mb_s", 120.0 }, { "a.iops", 30.0 }, { "a.latency_p99_us", 95.0 }, { "a.seconds", 4.0 }, { "bytes", std::uint64_t { 30 } } },
        { { "a.throughput_mb_s", 80.0 }, { "a.iops", 20.0 }, { "a.latency_p99_us", 70.0 }, { "a.seconds", 6.0 }, { "bytes", std::uint64_t { 20 } } },
    };
    std::vector<diskbench::contract::Message> warnings;
    const ValueMap best = merge_pass_summaries(passes, warnings, Scoring::Best);
    CHECK(std::get<double>(best.at("a.throughput_mb_s")) == 120.0);
    CHECK(std::get<double>(best.at("a.iops")) == 30.0);
    CHECK(std::get<double>(best.at("a.latency_p99_us")) == 70.0);
    CHECK(std::get<double>(best.at("a.seconds")) == 5.0);
    CHECK(std::get<std::uint64_t>(best.at("bytes")) == 20);
    // The spread is the same whichever the scoring.
    CHECK(std::get<double>(best.at("a.throughput_mb_s_min")) == 80.0);
    CHECK(std::get<double>(best.at("a.throughput_mb_s_cv_percent")) == Approx(20.0));
    warnings.clear();
    CHECK(std::get<double>(merge_pass_summaries(passes, warnings).at("a.throughput_mb_s")) == 100.0);
}

TEST_CASE("each pass reads with its own seed, pass 1 with the caller's", "[passes]")
{
    CHECK(pass_seed(1234, 1) == 1234);
    CHECK(pass_seed(1234, 2) != 1234);
    CHECK(pass_seed(1234, 2) != pass_seed(1234, 3));
    CHECK(pass_series_name("throughput", 2) == "throughput.pass2");
}

TEST_CASE("profile with passes on a loop device: per-pass series, median and spread", "[passes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 64 * MiB, 21);
    LoopDevice loop(backing);
    loop.wait_until_idle();

    RecordingSink sink;
    const Result result = run_profile(loop.path(),
                                      { { "tests", std::string("SEQ1M Q4T1, RND4K Q8T1") },
                                        { "duration_s", 0.4 }, { "warmup_s", 0.1 },
                                        { "passes", std::uint64_t { 3 } } },
                                      sink);
    CHECK_FALSE(result.cancelled);
    CHECK(sink.progress_monotonic);
    CHECK(sink.last_progress == 1.0);
    CHECK(number(result, "passes") == 3);
    // Every series three times by pass, then the median under its own name, last.
    // profile's series: throughput, iops, latency_p50, latency_p99, latency_p99_9,
    // then a latency distribution per test (cdf-seq1m_q4t1, cdf-rnd4k_q8t1),
    // whose median is the median latency at each share.
    constexpr std::size_t per_pass = 7;
    REQUIRE(result.series.size() == 4 * per_pass);
    for (unsigned pass = 1; pass <= 3; ++pass) {
        CHECK(result.series[(pass - 1) * per_pass].info.name == pass_series_name("throughput", pass));
        CHECK(result.series[(pass - 1) * per_pass + 4].info.name == pass_series_name("latency_p99_9", pass));
    }
    CHECK(result.series[3 * per_pass].info.name == "throughput");
    CHECK(result.series[4 * per_pass - 3].info.name == "latency_p99_9");
    CHECK(result.series[4 * per_pass - 1].info.name == "cdf-rnd4k_q8t1");
    CHECK(result.series[per_pass - 1].info.name == pass_series_name("cdf-rnd4k_q8t1", 1));
    REQUIRE(sink.series.size() == result.series.size());

    const char* keys[] = { "seq1m_q4t1.", "rnd4k_q8t1." };
    for (std::size_t test = 0; test < 2; ++test) {
        for (const std::string figure : { "throughput_mb_s", "iops" }) {
            const std::string key = keys[test] + figure;
            INFO(key);
            const std::string series = figure == "iops" ? "iops" : "throughput";
            double per_pass[3];
            for (unsigned pass = 1; pass <= 3; ++pass) {
                const Series& bars = series_named(result, pass_series_name(series, pass));
                REQUIRE(bars.points.size() == 2);
                per_pass[pass - 1] = bars.points[test].y;
                CHECK(per_pass[pass - 1] > 0);
            }
            const double median = median_of_three(per_pass[0], per_pass[1], per_pass[2]);
            CHECK(number(result, key) == median);
            CHECK(series_named(result, series).points[test].y == median);
            CHECK(number(result, key + "_min") == std::min({ per_pass[0], per_pass[1], per_pass[2] }));
            CHECK(number(result, key + "_max") == std::max({ per_pass[0], per_pass[1], per_pass[2] }));
            const double cv = spread_of({ per_pass[0], per_pass[1], per_pass[2] }).cv_percent;
            CHECK(number(result, key + "_cv_percent") == Approx(cv));
        }
    }
}

TEST_CASE("profile scored best of the passes: an unscored warm-up pass, then the highest of the scored ones",
          "[passes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 64 * MiB, 22);
    LoopDevice loop(backing);
    loop.wait_until_idle();
    const std::uint64_t reads_before = loop.completed_reads();

    RecordingSink sink;
    const Result result = run_profile(loop.path(),
                                      { { "tests", std::string("SEQ1M Q4T1, RND4K Q8T1") },
                                        // The byte limit ends each test, not the time.
                                        { "duration_s", 30.0 }, { "warmup_s", 0.0 }, { "max_bytes", 8 * MiB },
                                        { "passes", std::uint64_t { 2 } }, { "scoring", std::string("best") } },
                                      sink);
    CHECK_FALSE(result.cancelled);
    CHECK(sink.progress_monotonic);
    CHECK(sink.last_progress == 1.0);
    CHECK(number(result, "passes") == 2);
    CHECK(std::get<std::string>(result.summary.at("scoring")) == "best");
    // The warm-up pass read (three passes' worth of reads reached the
    // device) but published nothing: two passes' series and their median.
    constexpr std::size_t per_pass = 7;
    CHECK(result.series.size() == 3 * per_pass);
    CHECK(result.series[0].info.name == pass_series_name("throughput", 1));
    // 8 MiB per test: 8 reads of 1 MiB (or more, split) and 2048 of 4 KiB.
    CHECK(loop.completed_reads() - reads_before >= 3 * (8 + 2048));
    for (std::size_t test = 0; test < 2; ++test) {
        const std::string key = std::string(test == 0 ? "seq1m_q4t1." : "rnd4k_q8t1.") + "throughput_mb_s";
        INFO(key);
        const double first = series_named(result, pass_series_name("throughput", 1)).points.at(test).y;
        const double second = series_named(result, pass_series_name("throughput", 2)).points.at(test).y;
        CHECK(number(result, key) == std::max(first, second));
        CHECK(number(result, key + "_min") == std::min(first, second));
    }
    // A single median pass says how it was scored too.
    RecordingSink once;
    const Result plain = run_profile(loop.path(),
                                     { { "tests", std::string("RND4K Q8T1") }, { "duration_s", 0.1 },
                                       { "warmup_s", 0.0 } },
                                     once);
    CHECK(std::get<std::string>(plain.summary.at("scoring")) == "median");
}

TEST_CASE("a pass slowed by competing reads raises the spread warning", "[passes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 64 * MiB, 22);
    LoopDevice loop(backing);
    loop.wait_until_idle();

    RecordingSink record;
    SlowSecondPass sink(record, loop.path(), 64 * MiB);
    const Result result = run_profile(loop.path(),
                                      { { "tests", std::string("SEQ1M Q2T1") }, { "duration_s", 1.0 },
                                        { "warmup_s", 0.2 }, { "passes", std::uint64_t { 3 } } },
                                      sink);
    const double first = series_named(result, "throughput.pass1").points.at(0).y;
    const double slowed = series_named(result, "throughput.pass2").points.at(0).y;
    const double third = series_named(result, "throughput.pass3").points.at(0).y;
    INFO("pass 1 " << first << " MB/s, pass 2 (competing reads) " << slowed << " MB/s, pass 3 " << third << " MB/s");
    CHECK(slowed < first * 0.9);
    CHECK(slowed < third * 0.9);
    CHECK(number(result, "seq1m_q2t1.throughput_mb_s_cv_percent") > 5.0);
    CHECK(mentions(result.warnings, "seq1m_q2t1.throughput_mb_s: results varied "));
    CHECK(mentions(result.warnings, " % between passes"));
    // The median is a quiet pass's figure, not dragged down by the slow one.
    CHECK(number(result, "seq1m_q2t1.throughput_mb_s") == std::min(first, third));
}

TEST_CASE("passes: which kinds take it, and its range", "[passes]")
{
    const auto takes_passes = [](const char* kind) {
        const BenchmarkInfo* info = find_benchmark(kind);
        REQUIRE(info != nullptr);
        return std::any_of(info->params.begin(), info->params.end(),
                           [](const ParamSpec& spec) { return spec.key == "passes"; });
    };
    for (const char* kind : { "seek", "random", "sequential", "surface", "block", "profile", "qd-sweep", "file-rw",
                              "write-sweep", "device-write", "device-write-sweep", "structure", "small-files" }) {
        INFO(kind);
        CHECK(takes_passes(kind));
    }
    CHECK_FALSE(takes_passes("sustained-write"));
    CHECK_FALSE(takes_passes("mixed-load"));

    const BenchmarkInfo* profile = find_benchmark("profile");
    CHECK_THROWS_AS(validate_parameters(profile->params, { { "passes", std::uint64_t { 0 } } }), ParameterError);
    CHECK_THROWS_AS(validate_parameters(profile->params, { { "passes", std::uint64_t { max_passes + 1 } } }),
                    ParameterError);
    CHECK(validate_parameters(profile->params, {}).unsigned_value("passes") == 1);
}

TEST_CASE("a message the catalogue cannot render still ends up in the result, as its id and arguments",
          "[passes]")
{
    // A daemon bug (an id missing from the catalogue, an argument left out)
    // must cost a translation, not the job: add_warning runs on benchmark
    // threads and in JobObject::finish() before Completed is signalled.
    Result result;
    REQUIRE_NOTHROW(add_warning(result, { "no-such-message-id", { { "device", "loop7" }, { "percent", 12.5 } } }));
    REQUIRE(result.warnings.size() == 1);
    CHECK(result.warnings[0] == "no-such-message-id: device=loop7, percent=12.500000");
    REQUIRE(result.warning_messages.size() == 1);
    CHECK(result.warning_messages[0].id == "no-such-message-id");
    // A catalogue message with an argument left out: the same fallback.
    REQUIRE_NOTHROW(add_note(result, { "loop-page-cache-backed", { { "device", "loop7" } } }));
    REQUIRE(result.notes.size() == 1);
    CHECK(result.notes[0] == "loop-page-cache-backed: device=loop7");
}
