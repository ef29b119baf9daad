// SPDX-License-Identifier: GPL-3.0-or-later
// Every raw read benchmark on real targets: a file, and loop devices with
// 512-byte and 4 KiB logical sectors (direct I/O to the backing file), with
// both I/O backends. Sizes are cut down so the whole file runs in seconds;
// the logic is the same as with the defaults.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "io/target.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "scratch.hpp"

#include "contract/series.hpp"

#include <catch2/catch.hpp>

#include <map>

#include <algorithm>
#include <bit>
#include <fstream>
#include <iterator>
#include <chrono>
#include <optional>
#include <thread>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

Result run(const std::string& kind, const std::string& path, ValueMap params, RecordingSink& sink,
           const std::string& backend = "auto")
{
    const BenchmarkInfo* info = find_benchmark(kind);
    REQUIRE(info != nullptr);
    params["backend"] = backend;
    const Target target = open_target_for_read(path);
    CancelToken cancel;
    return run_benchmark(*info, target, validate_request(*info, params), &sink, cancel);
}

// What holds for every completed run: the sink saw exactly the Result's
// series and points, progress rose to 1, and the target's bytes are unchanged.
void check_common(const Result& result, const RecordingSink& sink, const std::string& expected_backend)
{
    CHECK_FALSE(result.cancelled);
    CHECK(result.backend == expected_backend);
    CHECK(sink.series_order_ok);
    REQUIRE(sink.series.size() == result.series.size());
    for (std::size_t i = 0; i < result.series.size(); ++i) {
        CHECK(sink.series[i].name == result.series[i].info.name);
        if (is_partial_series(result.series[i].info.name)) {
            // Live-only: the sink may have had some, the result keeps none.
            CHECK(result.series[i].points.empty());
            continue;
        }
        REQUIRE(sink.points[i].size() == result.series[i].points.size());
        CHECK(!result.series[i].points.empty());
        for (std::size_t j = 0; j < sink.points[i].size(); ++j) {
            CHECK(sink.points[i][j].x == result.series[i].points[j].x);
            CHECK(sink.points[i][j].y == result.series[i].points[j].y);
        }
    }
    CHECK(sink.progress_monotonic);
    CHECK(sink.last_progress == 1.0);
    CHECK(result.finished >= result.started);
}

struct Device {
    std::string label;
    std::string path;
    std::uint32_t logical_block;
};

} // namespace

// Made once for all runs of the test case below (Catch2 re-enters it for
// every generator value and section); removed at exit.
struct SharedFiles {
    ScratchDir dir;
    std::filesystem::path backing = make_data_file(dir, "backing", 64 * MiB, 11);
    std::filesystem::path plain = make_data_file(dir, "plain", 64 * MiB, 12);
    std::uint64_t backing_sum = checksum(backing);
    std::uint64_t plain_sum = checksum(plain);
};

const SharedFiles& shared_files()
{
    static const SharedFiles files;
    return files;
}

TEST_CASE("raw read benchmarks on files and loop devices", "[benchmarks][loop]")
{
    const auto& [dir, backing, plain, backing_sum, plain_sum] = shared_files();

    std::optional<LoopDevice> loop;
    std::vector<Device> devices;
    const auto target_kind = GENERATE(as<std::string> {}, "file", "loop-512", "loop-4096");
    const auto backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    if (target_kind == "file") {
        devices.push_back({ target_kind, plain.string(), open_target_for_read(plain).logical_block });
    } else {
        const std::uint32_t sector = target_kind == "loop-512" ? 512 : 4096;
        loop.emplace(backing, sector);
        REQUIRE(loop->direct_io());
        devices.push_back({ target_kind, loop->path(), sector });
    }
    const Device& device = devices.front();
    INFO(device.label << " with " << backend);

    SECTION("seek: one point per read, latencies sane")
    {
        RecordingSink sink;
        const Result result = run("seek", device.path, { { "count", std::uint64_t { 300 } } }, sink, backend);
        check_common(result, sink, backend);
        const Series& latency = series_named(result, "latency");
        CHECK(latency.points.size() == 300);
        CHECK(number(result, "reads") == 300);
        CHECK(number(result, "block_size") == device.logical_block);
        const double min = number(result, "latency_min_us");
        const double max = number(result, "latency_max_us");
        const double p50 = number(result, "latency_p50_us");
        CHECK(min > 0);
        CHECK(min <= p50);
        CHECK(p50 <= number(result, "latency_p99_us"));
        CHECK(number(result, "latency_p99_us") <= max);
        for (const auto& point : latency.points) {
            CHECK(point.x >= 0);
            CHECK(point.x < 64.0 * MiB);
            CHECK(point.y >= min * 0.99);
            CHECK(point.y <= max * 1.01);
        }
    }

    SECTION("random: a bar per block size, MB/s consistent with IOPS")
    {
        RecordingSink sink;
        const Result result = run("random", device.path,
                                  { { "count_per_size", std::uint64_t { 40 } },
                                    { "max_block", std::uint64_t { 256 * 1024 } },
                                    { "aligned", false } },
                                  sink, backend);
        check_common(result, sink, backend);
        const Series& throughput = series_named(result, "throughput");
        const Series& iops = series_named(result, "iops");
        const auto sizes = static_cast<std::size_t>(std::countr_zero(256u * 1024u / device.logical_block)) + 1;
        REQUIRE(throughput.points.size() == sizes);
        REQUIRE(iops.points.size() == sizes);
        for (std::size_t i = 0; i < sizes; ++i) {
            CHECK(throughput.points[i].x == static_cast<double>(device.logical_block << i));
            CHECK(throughput.points[i].y > 0);
            CHECK(throughput.points[i].y == Approx(iops.points[i].y * throughput.points[i].x / 1e6).epsilon(1e-9));
        }
        CHECK(number(result, "reads") == 40.0 * static_cast<double>(sizes));
    }

    SECTION("sequential: position against MB/s over the asked span")
    {
        RecordingSink sink;
        const Result result = run("sequential", device.path,
                                  { { "size", std::uint64_t { 32 * MiB } }, { "block_size", std::uint64_t { MiB } },
                                    { "offset", std::uint64_t { 8 * MiB } } },
                                  sink, backend);
        check_common(result, sink, backend);
        const Series& throughput = series_named(result, "throughput");
        REQUIRE(throughput.points.size() == 32);
        for (std::size_t i = 0; i < 32; ++i) {
            CHECK(throughput.points[i].x == static_cast<double>(8 * MiB + i * MiB));
            CHECK(throughput.points[i].y > 0);
        }
        CHECK(number(result, "bytes") == 32.0 * MiB);
        CHECK(number(result, "throughput_min_mb_s") <= number(result, "throughput_mb_s") * 1.0001);
    }

    SECTION("sequential with reads in flight: every interval is a real rate")
    {
        // With QD > 1, io_uring reaps several reads at one timestamp and
        // psync reports them out of order; an interval of one read then
        // measured nothing (0 MB/s) or nonsense (TB/s).
        RecordingSink sink;
        const Result result = run("sequential", device.path,
                                  { { "size", std::uint64_t { 32 * MiB } }, { "block_size", std::uint64_t { 64 * 1024 } },
                                    { "queue_depth", std::uint64_t { 16 } } },
                                  sink, backend);
        check_common(result, sink, backend);
        const double overall = number(result, "throughput_mb_s");
        const Series& throughput = series_named(result, "throughput");
        REQUIRE(!throughput.points.empty());
        for (const auto& point : throughput.points) {
            INFO("at " << point.x << ": " << point.y << " MB/s, overall " << overall);
            CHECK(point.y > overall / 50);
            CHECK(point.y < overall * 50);
        }
    }

    SECTION("surface: the whole device in bounded buckets with min <= mean <= max")
    {
        RecordingSink sink;
        const Result result = run("surface", device.path, { { "buckets", std::uint64_t { 16 } } }, sink, backend);
        check_common(result, sink, backend);
        const Series& mean = series_named(result, "mean");
        const Series& min = series_named(result, "min");
        const Series& max = series_named(result, "max");
        REQUIRE(mean.points.size() == 16);
        REQUIRE(min.points.size() == 16);
        REQUIRE(max.points.size() == 16);
        CHECK(number(result, "bytes") == 64.0 * MiB);
        for (std::size_t i = 0; i < 16; ++i) {
            INFO("bucket " << i);
            CHECK(min.points[i].x == mean.points[i].x);
            CHECK(min.points[i].y <= mean.points[i].y * 1.000001);
            CHECK(mean.points[i].y <= max.points[i].y * 1.000001);
        }
    }

    SECTION("block: a bar per block size, each reading the same amount")
    {
        RecordingSink sink;
        const Result result = run("block", device.path,
                                  { { "amount_per_size", std::uint64_t { 2 * MiB } },
                                    { "max_block", std::uint64_t { 128 * 1024 } } },
                                  sink, backend);
        check_common(result, sink, backend);
        const auto sizes = static_cast<std::size_t>(std::countr_zero(128u * 1024u / device.logical_block)) + 1;
        REQUIRE(series_named(result, "throughput").points.size() == sizes);
        CHECK(number(result, "bytes") == 2.0 * MiB * static_cast<double>(sizes));
    }

    SECTION("profile: each test a bar in every series and a summary block")
    {
        RecordingSink sink;
        const Result result = run("profile", device.path,
                                  { { "tests", std::string("SEQ1M Q8T1, RND4K Q4T2") },
                                    { "duration_s", 0.3 },
                                    { "warmup_s", 0.1 },
                                    { "region_size", std::uint64_t { 32 * MiB } } },
                                  sink, backend);
        check_common(result, sink, backend);
        for (const char* name : { "throughput", "iops", "latency_p50", "latency_p99", "latency_p99_9" })
            CHECK(series_named(result, name).points.size() == 2);
        CHECK(std::get<std::string>(result.summary.at("tests")) == "SEQ1M Q8T1,RND4K Q4T2");
        for (const char* key : { "seq1m_q8t1", "rnd4k_q4t2" }) {
            INFO(key);
            const std::string prefix = std::string(key) + ".";
            const double seconds = number(result, prefix + "seconds");
            CHECK(seconds >= 0.25);
            CHECK(seconds < 5);
            CHECK(number(result, prefix + "throughput_mb_s") > 0);
            CHECK(number(result, prefix + "latency_p50_us")
                  <= number(result, prefix + "latency_p99_us"));
        }
        CHECK(number(result, "rnd4k_q4t2.throughput_mb_s")
              == Approx(number(result, "rnd4k_q4t2.iops") * 4096 / 1e6));
    }

    SECTION("qd-sweep: IOPS and p99 per queue depth for each thread count")
    {
        RecordingSink sink;
        const Result result = run("qd-sweep", device.path,
                                  { { "max_queue_depth", std::uint64_t { 4 } },
                                    { "max_threads", std::uint64_t { 2 } },
                                    { "duration_s", 0.1 },
                                    { "warmup_s", 0.0 },
                                    { "region_size", std::uint64_t { 32 * MiB } } },
                                  sink, backend);
        check_common(result, sink, backend);
        for (const char* name : { "iops-t1", "p99-t1", "iops-t2", "p99-t2" }) {
            const Series& series = series_named(result, name);
            REQUIRE(series.points.size() == 3);
            CHECK(series.points[0].x == 1);
            CHECK(series.points[2].x == 4);
            for (const auto& point : series.points)
                CHECK(point.y > 0);
        }
        CHECK(number(result, "best_iops") > 0);
    }

    loop.reset();
    // Read-only benchmarks: not one byte of either target changed.
    CHECK(checksum(backing) == backing_sum);
    CHECK(checksum(plain) == plain_sum);
}

TEST_CASE("a run's latency distribution is a CDF series at fixed quantiles, agreeing with its percentiles",
          "[benchmarks]")
{
    ScratchDir dir;
    const auto path = make_data_file(dir, "data", 16 * MiB);
    RecordingSink sink;
    const Result seek = run("seek", path, { { "count", std::uint64_t { 400 } } }, sink);
    const auto cdf = std::find_if(seek.series.begin(), seek.series.end(),
                                  [](const Series& s) { return s.info.name == "cdf"; });
    REQUIRE(cdf != seek.series.end());
    CHECK(cdf->info.x_unit == "us");
    CHECK(cdf->info.y_unit == "%");
    REQUIRE(cdf->points.size() == 19);
    // From the fastest (0 %) to the slowest (100 %), never falling.
    CHECK(cdf->points.front().y == 0);
    CHECK(cdf->points.back().y == 100);
    CHECK(cdf->points.front().x == Approx(std::get<double>(seek.summary.at("latency_min_us"))));
    CHECK(cdf->points.back().x == Approx(std::get<double>(seek.summary.at("latency_max_us"))));
    for (std::size_t i = 1; i < cdf->points.size(); ++i) {
        CHECK(cdf->points[i].y > cdf->points[i - 1].y);
        CHECK(cdf->points[i].x >= cdf->points[i - 1].x);
    }
    // Its p50 and p99 are the summary's.
    for (const auto& [share, key] : { std::pair { 50.0, "latency_p50_us" }, { 99.0, "latency_p99_us" } }) {
        const auto at = std::find_if(cdf->points.begin(), cdf->points.end(),
                                     [share](const SeriesPoint& p) { return std::abs(p.y - share) < 1e-9; });
        REQUIRE(at != cdf->points.end());
        CHECK(at->x == Approx(std::get<double>(seek.summary.at(key))));
    }
    // One per block size of a sweep, one per test of the Profiles.
    RecordingSink sweep_sink;
    const Result random = run("random", path, { { "count_per_size", std::uint64_t { 20 } },
                                                { "min_block", std::uint64_t { 4096 } },
                                                { "max_block", std::uint64_t { 16384 } } },
                              sweep_sink);
    std::vector<std::string> names;
    for (const Series& s : random.series)
        if (diskbench::contract::is_latency_cdf(s.info.name))
            names.push_back(s.info.name);
    CHECK(names == std::vector<std::string> { "cdf-4096", "cdf-8192", "cdf-16384" });
    RecordingSink profile_sink;
    const Result profile = run("profile", path, { { "preset", std::string("real-world") }, { "duration_s", 0.05 },
                                                  { "warmup_s", 0.0 }, { "region_size", std::uint64_t { 8 * MiB } } },
                               profile_sink);
    names.clear();
    for (const Series& s : profile.series)
        if (diskbench::contract::is_latency_cdf(s.info.name))
            names.push_back(s.info.name);
    CHECK(names == std::vector<std::string> { "cdf-seq1m_q1t1", "cdf-rnd4k_q1t1" });
    CHECK_FALSE(diskbench::contract::is_latency_cdf("cdfx"));
    CHECK_FALSE(diskbench::contract::is_latency_cdf("cdf-"));
}

TEST_CASE("the queue-depth sweep's grid goes to 64 threads and QD 256, leaving out what exceeds the limits",
          "[benchmarks]")
{
    ScratchDir dir;
    const auto path = make_data_file(dir, "data", 16 * MiB);
    RecordingSink sink;
    const Result wide = run("qd-sweep", path,
                            { { "max_threads", std::uint64_t { 64 } }, { "max_queue_depth", std::uint64_t { 256 } },
                              { "duration_s", 0.05 }, { "warmup_s", 0.0 }, { "region_size", std::uint64_t { 8 * MiB } } },
                            sink);
    // 7 thread counts x 9 depths; more than 1024 reads in flight: 1 cell
    // at 8 threads, 2 at 16, 3 at 32, 4 at 64.
    CHECK(std::get<std::uint64_t>(wide.summary.at("cells")) == 63 - 10);
    REQUIRE(wide.notes.size() == 1);
    CHECK(wide.notes[0].find("10 combinations") != std::string::npos);
    std::map<std::string, std::vector<double>> depths;
    for (const Series& s : wide.series)
        for (const SeriesPoint& p : s.points)
            depths[s.info.name].push_back(p.x);
    CHECK(depths["iops-t1"] == std::vector<double> { 1, 2, 4, 8, 16, 32, 64, 128, 256 });
    CHECK(depths["iops-t64"] == std::vector<double> { 1, 2, 4, 8, 16 });
    CHECK(std::get<std::string>(wide.summary.at("pattern")) == "random");
    // Sequential: the same grid of streams.
    RecordingSink sequential_sink;
    const Result sequential = run("qd-sweep", path,
                                  { { "pattern", std::string("sequential") }, { "max_threads", std::uint64_t { 2 } },
                                    { "max_queue_depth", std::uint64_t { 4 } }, { "block_size", std::uint64_t { 65536 } },
                                    { "duration_s", 0.05 }, { "warmup_s", 0.0 },
                                    { "region_size", std::uint64_t { 8 * MiB } } },
                                  sequential_sink);
    CHECK(std::get<std::string>(sequential.summary.at("pattern")) == "sequential");
    CHECK(std::get<std::uint64_t>(sequential.summary.at("cells")) == 6);
    CHECK(sequential.notes.empty());
    CHECK(std::get<double>(sequential.summary.at("best_iops")) > 0);
}

TEST_CASE("the same seed reads the same offsets", "[benchmarks]")
{
    ScratchDir dir;
    const auto path = make_data_file(dir, "data", 16 * MiB);
    RecordingSink first;
    RecordingSink second;
    RecordingSink other;
    run("seek", path, { { "count", std::uint64_t { 50 } }, { "seed", std::uint64_t { 9 } } }, first);
    run("seek", path, { { "count", std::uint64_t { 50 } }, { "seed", std::uint64_t { 9 } } }, second);
    run("seek", path, { { "count", std::uint64_t { 50 } }, { "seed", std::uint64_t { 10 } } }, other);
    REQUIRE(first.points[0].size() == 50);
    bool differs = false;
    for (std::size_t i = 0; i < 50; ++i) {
        CHECK(first.points[0][i].x == second.points[0][i].x); // seek distance: same offsets
        differs |= first.points[0][i].x != other.points[0][i].x;
    }
    CHECK(differs);
}

TEST_CASE("surface gives the bucket count asked for even when blocks do not divide evenly", "[benchmarks]")
{
    ScratchDir dir;
    const auto path = make_data_file(dir, "data", 16 * MiB);
    RecordingSink sink;
    // 16 MiB in 16 KiB reads = 1024 blocks into 1000 buckets.
    const Result result = run("surface", path,
                              { { "block_size", std::uint64_t { 16 * 1024 } }, { "buckets", std::uint64_t { 1000 } } },
                              sink);
    const Series& mean = series_named(result, "mean");
    REQUIRE(mean.points.size() == 1000);
    CHECK(number(result, "buckets") == 1000);
    CHECK(number(result, "bytes") == 16.0 * MiB);
    std::vector<double> positions;
    for (const auto& point : mean.points)
        positions.push_back(point.x);
    std::sort(positions.begin(), positions.end());
    CHECK(positions.front() == 0);
    CHECK(std::adjacent_find(positions.begin(), positions.end()) == positions.end()); // all distinct
    for (std::size_t i = 1; i < positions.size(); ++i) {
        const double step = positions[i] - positions[i - 1];
        CHECK((step == 16 * 1024 || step == 32 * 1024)); // one or two blocks per bucket
    }

    RecordingSink few;
    const Result tiny = run("surface", path,
                            { { "block_size", std::uint64_t { 4 * MiB } }, { "buckets", std::uint64_t { 1000 } } }, few);
    CHECK(series_named(tiny, "mean").points.size() == 4);
    CHECK(std::find_if(tiny.notes.begin(), tiny.notes.end(),
                       [](const std::string& n) { return n.find("4 buckets instead of 1000") != std::string::npos; })
          != tiny.notes.end());
}

namespace {
bool transparent_huge_pages_available()
{
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text((std::istreambuf_iterator<char>(mode)), std::istreambuf_iterator<char>());
    return !text.empty() && text.find("[never]") == std::string::npos;
}
} // namespace

TEST_CASE("1 MiB reads reach the device whole, not split by buffer segments", "[benchmarks][loop]")
{
    // A loop device takes at most 128 segments per request; a 1 MiB buffer
    // in scattered 4 KiB pages is 256 and gets split in two, halving the
    // request size the device sees (this is how we once trailed fio by a
    // third on SEQ1M Q1T1). The engine's buffers sit in transparent huge
    // pages to avoid that.
    REQUIRE(transparent_huge_pages_available()); // THP is on on Debian's kernels; without it this test is meaningless
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 64 * MiB);
    LoopDevice loop(backing);
    const auto backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    INFO(backend);
    loop.wait_until_idle();
    const std::uint64_t before = loop.completed_reads();
    RecordingSink sink;
    const Result result = run("sequential", loop.path(),
                              { { "size", std::uint64_t { 64 * MiB } }, { "block_size", std::uint64_t { MiB } } }, sink,
                              backend);
    const std::uint64_t requests = loop.completed_reads() - before;
    CHECK(number(result, "bytes") == 64.0 * MiB);
    CHECK(requests == 64);
}

namespace {

// Records every call in order, and takes 2 ms per progress call (the run
// reports progress every 0.1 %), so the surface map's one bucket takes
// about 2 s, as a bucket of a big disk takes minutes.
class SlowOrderedSink final : public SampleSink {
public:
    struct Entry {
        std::size_t series;
        SeriesPoint point;
        std::chrono::steady_clock::time_point at;
    };
    void series_added(std::size_t, const SeriesInfo& info) override { names.push_back(info.name); }
    void point_added(std::size_t series, const SeriesPoint& point) override
    {
        entries.push_back({ series, point, std::chrono::steady_clock::now() });
    }
    void progress_changed(double) override { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }

    std::vector<std::string> names;
    std::vector<Entry> entries;
};

} // namespace

TEST_CASE("surface: a slow bucket sends partial points before its final one, none kept in the result",
          "[benchmarks]")
{
    const SharedFiles& files = shared_files();
    const BenchmarkInfo* info = find_benchmark("surface");
    REQUIRE(info != nullptr);
    const Target target = open_target_for_read(files.plain);
    CancelToken cancel;
    SlowOrderedSink sink;
    // slow_ms: a read of this loaded test machine that happens to take
    // 5 ms would add the slow-spot series, which this test is not about.
    const ValueMap params = { { "buckets", std::uint64_t { 1 } }, { "block_size", std::uint64_t { 64 * 1024 } },
                              { "slow_ms", 60'000.0 } };
    const Result result = run_benchmark(*info, target, validate_request(*info, params), &sink, cancel);

    REQUIRE(sink.names
            == std::vector<std::string> { "mean", "min", "max", "mean.partial", "min.partial", "max.partial" });
    for (const Series& series : result.series)
        CHECK(series.points.empty() == is_partial_series(series.info.name));
    // The final point comes last; every partial point before it, at its x,
    // at least 0.2 s after the one before, at most 100 of them.
    REQUIRE(!sink.entries.empty());
    std::size_t partial = 0;
    std::optional<std::chrono::steady_clock::time_point> last_partial;
    bool final_seen = false;
    for (const auto& entry : sink.entries) {
        CHECK(entry.point.x == 0.0);
        CHECK(entry.point.y > 0);
        if (entry.series < 3) {
            final_seen = true;
            continue;
        }
        CHECK_FALSE(final_seen);
        if (entry.series == 3) {
            ++partial;
            if (last_partial)
                CHECK(entry.at - *last_partial >= std::chrono::milliseconds(190));
            last_partial = entry.at;
        }
    }
    CHECK(final_seen);
    CHECK(partial >= 2); // ~2 s of bucket: about 10
    CHECK(partial <= 100);
}
