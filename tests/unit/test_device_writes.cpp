// SPDX-License-Identifier: GPL-3.0-or-later
// The device write benchmarks (device-write, device-write-sweep,
// sustained-write) on loop devices with 512-byte and 4 KiB logical sectors
// over files of random data, with direct I/O and both backends: preserve
// mode gives back every byte, destroy mode writes only where it says, the
// refusals come before any I/O, a mounted device is refused as busy, and a
// cancelled run stops. Plus the steady-state detector on made-up series.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "benchmarks/steady_state_analysis.hpp"
#include "io/target.hpp"
#include "mounts.hpp"
#include "parameter_checks.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "scratch.hpp"
#include "slowdown.hpp"
#include "storage/device_holders.hpp"

#include <catch2/catch.hpp>

#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#include <csignal>
#include <cstring>

#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <iterator>
#include <optional>
#include <random>
#include <thread>

using namespace diskbench::engine;
using namespace diskbench::engine::benchmarks;
using namespace diskbench::testing;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;
constexpr std::uint64_t device_size = 24 * MiB;

// A mounted filesystem frozen (FIFREEZE: its dirty data written, and no
// write of its own until thawed) for as long as this lives.
class FrozenFilesystem {
public:
    explicit FrozenFilesystem(const std::filesystem::path& mount_point)
        : fd_(::open(mount_point.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
    {
        REQUIRE(fd_ >= 0);
        REQUIRE(::ioctl(fd_, FIFREEZE, 0) == 0);
    }
    ~FrozenFilesystem()
    {
        ::ioctl(fd_, FITHAW, 0);
        ::close(fd_);
    }
    FrozenFilesystem(const FrozenFilesystem&) = delete;
    FrozenFilesystem& operator=(const FrozenFilesystem&) = delete;

private:
    int fd_;
};

std::vector<char> contents(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

std::string sha256(const std::filesystem::path& path)
{
    const std::string command = "sha256sum '" + path.string() + "'";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char digest[65] = {};
    const std::size_t got = std::fread(digest, 1, 64, pipe);
    REQUIRE(::pclose(pipe) == 0);
    REQUIRE(got == 64);
    return digest;
}

Result run(const std::string& kind, const Target& target, ValueMap params, RecordingSink* sink = nullptr)
{
    const BenchmarkInfo* info = find_benchmark(kind);
    REQUIRE(info != nullptr);
    CancelToken cancel;
    return run_benchmark(*info, target, validate_request(*info, params), sink, cancel);
}

// Small, fast settings for each kind, writing only in [0, 8 MiB) (the
// sweep: [0, 64 KiB)).
ValueMap small_params(const std::string& kind, const std::string& backend)
{
    ValueMap params { { "backend", backend } };
    if (kind == "device-write")
        params.insert({ { "size", 4 * MiB }, { "block_size", MiB }, { "region_size", 8 * MiB },
                        { "duration_s", 0.1 } });
    else if (kind == "device-write-sweep")
        // Small: 512-byte writes to a loop device over ext4 run at ~1 MB/s.
        params.insert({ { "amount_per_size", 64 * 1024 }, { "max_block", 64 * 1024 } });
    else
        params.insert({ { "size", 8 * MiB }, { "block_size", 256 * 1024 }, { "window_s", 0.01 } });
    return params;
}

std::vector<ThroughputWindow> windows(const std::vector<double>& rates)
{
    std::vector<ThroughputWindow> series;
    std::uint64_t bytes = 0;
    for (std::size_t i = 0; i < rates.size(); ++i) {
        series.push_back({ static_cast<double>(i + 1), rates[i], bytes });
        bytes += static_cast<std::uint64_t>(rates[i] * 1e6); // one-second windows
    }
    return series;
}

} // namespace

TEST_CASE("preserve mode leaves every byte as it was, yet writes", "[device-writes][loop]")
{
    const auto sector = GENERATE(512u, 4096u);
    const auto backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    INFO(sector << "-byte sectors, " << backend);
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, sector);
    const std::string before = sha256(backing);
    {
        LoopDevice loop(backing, sector);
        REQUIRE(loop.direct_io());
        const Target target = open_target_for_write(loop.path());
        REQUIRE(target.logical_block == sector);
        const std::uint64_t written_before = loop.bytes_written();
        RecordingSink sink;
        ValueMap params = small_params("device-write", backend);
        params["region_size"] = device_size; // random writes over the whole device
        const Result result = run("device-write", target, params, &sink);
        CHECK_FALSE(result.cancelled);
        CHECK(std::get<std::string>(result.summary.at("mode")) == "preserve");
        CHECK(std::get<std::string>(result.summary.at("tests")) == "SEQ1M Q1T1,RND4K Q1T1,RND4K Q32T1");
        for (const std::string test : { "seq1m_q1t1", "rnd4k_q1t1", "rnd4k_q32t1" }) {
            INFO(test);
            CHECK(number(result, test + ".throughput_mb_s") > 0);
            CHECK(number(result, test + ".iops") > 0);
            CHECK(number(result, test + ".latency_p99_us") >= number(result, test + ".latency_p50_us"));
        }
        CHECK(number(result, "seq1m_q1t1.bytes") == 4 * MiB);
        CHECK(sink.points.at(0).size() == 3); // a bar per test
        CHECK(!sink.points.at(4).empty());    // the sequential line
        CHECK(sink.last_progress == 1.0);
        // It did write: the sequential 4 MiB and the random writes.
        CHECK(loop.bytes_written() - written_before >= 4 * MiB + 2 * 4096);
    }
    CHECK(sha256(backing) == before);
}

TEST_CASE("the queue-depth sweep's writes keep every byte, on every thread count and queue depth",
          "[device-writes][loop]")
{
    // Two of the eight combinations (each run takes seconds): both
    // backends, both patterns, both sector sizes.
    const auto [sector, backend, pattern] = GENERATE(table<unsigned, std::string, std::string>(
        { { 512u, "io_uring", "random" }, { 4096u, "psync", "sequential" } }));
    INFO(sector << "-byte sectors, " << backend << ", " << pattern);
    const BenchmarkInfo& info = *find_benchmark("qd-sweep");
    // Reads by default; `writes` makes the run a device write (the daemon's
    // authorization and exclusive open follow target_for()).
    CHECK(info.target() == TargetKind::Device);
    CHECK(info.target_for({ { "writes", true } }) == TargetKind::DeviceWrite);
    CHECK(info.target_for({ { "writes", false } }) == TargetKind::Device);
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, sector + 3);
    const std::string before = sha256(backing);
    {
        LoopDevice loop(backing, sector);
        REQUIRE(loop.direct_io());
        const Target target = open_target_for_write(loop.path());
        const std::uint64_t written_before = loop.bytes_written();
        RecordingSink sink;
        const Result result = run("qd-sweep", target,
                                  { { "backend", backend }, { "writes", true }, { "pattern", pattern },
                                    { "max_queue_depth", std::uint64_t { 4 } }, { "max_threads", std::uint64_t { 4 } },
                                    { "duration_s", 0.1 }, { "warmup_s", 0.02 },
                                    { "region_size", std::uint64_t { 8 * MiB } } },
                                  &sink);
        CHECK_FALSE(result.cancelled);
        CHECK(std::get<std::string>(result.summary.at("direction")) == "write");
        CHECK(std::get<std::string>(result.summary.at("mode")) == "preserve");
        CHECK(std::get<std::string>(result.summary.at("pattern")) == pattern);
        CHECK(std::get<std::uint64_t>(result.summary.at("cells")) == 9);
        CHECK(std::get<std::uint64_t>(result.summary.at("written_range_bytes")) == 8 * MiB);
        for (const char* name : { "iops-t1", "p99-t1", "iops-t2", "p99-t2", "iops-t4", "p99-t4" }) {
            INFO(name);
            const Series& series = series_named(result, name);
            REQUIRE(series.points.size() == 3);
            CHECK(series.points[0].x == 1);
            CHECK(series.points[2].x == 4);
            for (const auto& point : series.points)
                CHECK(point.y > 0);
        }
        CHECK(number(result, "best_iops") > 0);
        CHECK(sink.last_progress == 1.0);
        // It wrote, warm-ups and cells alike: at least a block per cell.
        CHECK(loop.bytes_written() - written_before >= 9 * 2 * std::uint64_t { 4096 });
        // What the block layer saw is what the runner says it wrote (the
        // preserve reads and warm-ups are left out of both).
        CHECK(std::get<std::uint64_t>(result.summary.at("issued_write_bytes")) > 0);
        CHECK(std::get<std::uint64_t>(result.summary.at("issued_read_bytes")) == 0);
    }
    CHECK(sha256(backing) == before);
}

TEST_CASE("the queue-depth sweep's preserving writes leave out the cells whose copies would not fit in memory",
          "[device-writes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 17);
    const std::string before = sha256(backing);
    {
        LoopDevice loop(backing, 4096);
        const Target target = open_target_for_write(loop.path());
        // 128 KiB blocks: 512 in flight are 64 MiB (the most kept), more
        // are left out writing; past 1024 in flight, reading and writing
        // alike. Each cell a request or two (max_bytes).
        ValueMap params { { "writes", true },
                          { "block_size", 128 * 1024 },
                          { "max_queue_depth", std::uint64_t { 1024 } },
                          { "max_threads", std::uint64_t { 2 } },
                          { "pattern", std::string("sequential") },
                          { "duration_s", 0.05 },
                          { "warmup_s", 0.0 },
                          { "max_bytes", 256 * 1024 },
                          { "region_size", std::uint64_t { 16 * MiB } } };
        const Result writing = run("qd-sweep", target, params);
        // 1 thread: QD 1..512 of 1..1024; 2 threads: QD 1..256 (512 is
        // too much to keep, 1024 too many in flight). Each reason its note.
        CHECK(std::get<std::uint64_t>(writing.summary.at("cells")) == 10 + 9);
        REQUIRE(writing.notes.size() == 2);
        CHECK(writing.notes[0].starts_with("1 combinations"));
        CHECK(writing.notes[0].find("1024 reads") != std::string::npos);
        CHECK(writing.notes[1].starts_with("2 combinations"));
        CHECK(writing.notes[1].find("64 MiB of the device's data") != std::string::npos);
        CHECK(series_named(writing, "iops-t1").points.back().x == 512);
        CHECK(series_named(writing, "iops-t2").points.back().x == 256);
        params["writes"] = false;
        const Result reading = run("qd-sweep", target, params);
        CHECK(std::get<std::uint64_t>(reading.summary.at("cells")) == 11 + 10);
        REQUIRE(reading.notes.size() == 1);
        CHECK(reading.notes[0].starts_with("1 combinations"));
    }
    CHECK(sha256(backing) == before);
}

TEST_CASE("destroy mode writes new data, only in the range it declares", "[device-writes][loop]")
{
    const auto kind = GENERATE(as<std::string> {}, "device-write", "device-write-sweep", "sustained-write");
    const auto sector = GENERATE(512u, 4096u);
    const std::string backend = sector == 512 ? "io_uring" : "psync";
    INFO(kind << ", " << sector << "-byte sectors, " << backend);
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 7);
    const std::vector<char> before = contents(backing);
    Result result;
    {
        LoopDevice loop(backing, sector);
        const Target target = open_target_for_write(loop.path());
        ValueMap params = small_params(kind, backend);
        params["mode"] = std::string("destroy");
        params["confirm"] = loop.path();
        RecordingSink sink;
        result = run(kind, target, params, &sink);
        CHECK_FALSE(result.cancelled);
        CHECK(sink.last_progress == 1.0);
    }
    const std::vector<char> after = contents(backing);
    REQUIRE(after.size() == before.size());
    const auto range = static_cast<std::uint64_t>(number(result, "written_range_bytes"));
    CHECK(range == (kind == "device-write-sweep" ? 64 * 1024 : 8 * MiB));
    // Nothing past the range changed.
    CHECK(std::equal(before.begin() + static_cast<long>(range), before.end(), after.begin() + static_cast<long>(range)));
    // Every sector of the sequentially written part is new.
    const std::uint64_t sequential = kind == "device-write" ? 4 * MiB : range;
    std::uint64_t unchanged = 0;
    for (std::uint64_t at = 0; at < sequential; at += 512)
        unchanged += std::equal(before.begin() + static_cast<long>(at), before.begin() + static_cast<long>(at + 512),
                                after.begin() + static_cast<long>(at));
    CHECK(unchanged == 0);
    if (kind == "device-write-sweep") {
        // The dd study's statistics: mean, median, min, max of 9 repetitions per size.
        const std::uint64_t sizes = sector == 512 ? 8 : 5; // 512 B or 4 KiB .. 64 KiB
        CHECK(result.series.at(0).points.size() == sizes);
        CHECK(result.series.at(4).points.size() == sizes * 9);
        CHECK(number(result, "bytes") == static_cast<double>(sizes * 9 * 64 * 1024));
        CHECK(number(result, "throughput_max_mb_s") >= number(result, "throughput_min_mb_s"));
        CHECK(number(result, "throughput_min_mb_s") > 0);
        if (sector == 4096)
            CHECK_THAT(result.notes.at(0), Catch::Contains("below 4 KiB left out"));
    }
    if (kind == "sustained-write") {
        CHECK(number(result, "bytes") == 8 * MiB);
        CHECK(number(result, "windows") >= 1);
        CHECK(number(result, "burst_mb_s") > 0);
        CHECK(number(result, "steady_mb_s") > 0);
        CHECK(result.summary.count("steady_state") == 1);
        // A loop device has no cache to run full: no cliff, and no place of one.
        CHECK(result.summary.count("cliff") == 1);
        CHECK(result.summary.count("cliff_at_bytes") == (std::get<bool>(result.summary.at("cliff")) ? 1U : 0U));
    }
}

// The flush rule, counted by the block layer: a loop device has a write
// cache (its backing file can be synced), so each fdatasync of it is one
// completed flush request in /sys/block/loopN/stat.
TEST_CASE("destroy mode keeps the queue full and flushes once per test; preserve mode flushes every batch",
          "[device-writes][loop][flush-rule]")
{
    const std::string backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    INFO(backend);
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 11);
    LoopDevice loop(backing, 4096);
    loop.wait_until_idle();
    const Target target = open_target_for_write(loop.path());
    const auto flushed_by = [&](ValueMap params) {
        const std::uint64_t before = loop.flushes();
        const Result result = run("device-write", target, std::move(params));
        REQUIRE_FALSE(result.cancelled);
        const std::uint64_t flushes = loop.flushes() - before;
        // What the result says is what the device saw.
        CHECK(std::get<std::uint64_t>(result.summary.at("syncs")) == flushes);
        return std::pair { flushes, std::get<std::string>(result.summary.at("sync_rule")) };
    };
    // The random tests end by their byte limit (512 writes each), well
    // before their time: long enough that a batched run would have synced
    // several times in each.
    ValueMap params = small_params("device-write", backend);
    params["duration_s"] = 30.0;
    params["max_bytes"] = 2 * MiB;

    SECTION("destroy: one flush at the end of each of the three tests")
    {
        params["mode"] = std::string("destroy");
        params["confirm"] = loop.path();
        const auto [flushes, rule] = flushed_by(params);
        CHECK(rule == "end");
        CHECK(flushes == 3);
    }
    SECTION("destroy with sync_every: one flush per MiB written")
    {
        params["mode"] = std::string("destroy");
        params["confirm"] = loop.path();
        params["sync_every"] = MiB;
        const auto [flushes, rule] = flushed_by(params);
        CHECK(rule == "every");
        CHECK(flushes == 4 + 2 + 2); // 4 MiB sequential, 2 MiB in each random test
    }
    SECTION("preserve: every batch is synced, and batches are many")
    {
        params["sync_every"] = 256 * 1024; // at most 64 random writes or one 1 MiB write between syncs
        const auto [flushes, rule] = flushed_by(params);
        CHECK(rule == "batch");
        CHECK(flushes >= 4 + 2 * 8);
    }
    SECTION("sustained-write: one flush at the end, or one each sync_every")
    {
        ValueMap sustained = small_params("sustained-write", backend);
        sustained["mode"] = std::string("destroy");
        sustained["confirm"] = loop.path();
        const std::uint64_t before = loop.flushes();
        Result result = run("sustained-write", target, sustained);
        CHECK(loop.flushes() - before == 1);
        CHECK(std::get<std::string>(result.summary.at("sync_rule")) == "end");
        sustained["sync_every"] = 2 * MiB;
        const std::uint64_t again = loop.flushes();
        result = run("sustained-write", target, sustained);
        CHECK(loop.flushes() - again == 4); // 8 MiB, the last flush the one at the end
        CHECK(std::get<std::uint64_t>(result.summary.at("syncs")) == 4);
    }
}

TEST_CASE("the Profiles' write column: destroy writes every test and the mixed test, preserve the sequential ones",
          "[device-writes][loop][profile-writes]")
{
    const std::string backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    INFO(backend);
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 13);
    const std::vector<char> before = contents(backing);
    LoopDevice loop(backing, 4096);
    loop.wait_until_idle();
    // Byte limits end every run, not the time.
    ValueMap params { { "backend", backend },
                      { "tests", std::string("SEQ1M Q2T1, RND4K Q4T1") },
                      { "region_size", 8 * MiB },
                      { "duration_s", 30.0 },
                      { "warmup_s", 0.0 },
                      { "max_bytes", 2 * MiB },
                      { "write", true } };

    SECTION("destroy")
    {
        params["mode"] = std::string("destroy");
        params["confirm"] = loop.path();
        const Target target = open_target_for_write(loop.path());
        const std::uint64_t flushes_before = loop.flushes();
        const std::uint64_t written_before = loop.bytes_written();
        RecordingSink sink;
        const Result result = run("profile", target, params, &sink);
        CHECK_FALSE(result.cancelled);
        CHECK(sink.last_progress == 1.0);
        CHECK(sink.progress_monotonic);
        CHECK(std::get<std::string>(result.summary.at("tests")) == "SEQ1M Q2T1,RND4K Q4T1,MIX RND4K Q1T1");
        CHECK(std::get<std::string>(result.summary.at("written_tests")) == "SEQ1M Q2T1,RND4K Q4T1");
        CHECK(std::get<std::string>(result.summary.at("mode")) == "destroy");
        CHECK(std::get<std::string>(result.summary.at("sync_rule")) == "end");
        for (const std::string test : { "seq1m_q2t1", "rnd4k_q4t1" }) {
            INFO(test);
            CHECK(number(result, test + ".throughput_mb_s") > 0);
            CHECK(number(result, test + ".write_throughput_mb_s") > 0);
            CHECK(number(result, test + ".write_iops") > 0);
            CHECK(number(result, test + ".write_bytes") == 2 * MiB);
            CHECK(number(result, test + ".write_latency_p99_us") >= number(result, test + ".write_latency_p50_us"));
        }
        // The mixed test, 70 % reads by default, with both directions' figures.
        CHECK(number(result, "mix.read_percent") == 70);
        CHECK(number(result, "mix.read_iops") > number(result, "mix.write_iops"));
        CHECK(number(result, "mix.write_iops") > 0);
        CHECK(number(result, "mix.total_mb_s") > 0);
        CHECK(number(result, "mix.read_bytes") + number(result, "mix.write_bytes") == 2 * MiB);
        // One flush at the end of each written run, none between: two tests and the mix.
        CHECK(loop.flushes() - flushes_before == 3);
        CHECK(std::get<std::uint64_t>(result.summary.at("syncs")) == 3);
        // The bars: a write bar per written test and the mix's.
        CHECK(series_named(result, "write_throughput").points.size() == 3);
        // Written: the tests' 4 MiB and the mix's writes, all inside the region.
        CHECK(loop.bytes_written() - written_before >= 4 * MiB);
        const std::vector<char> after = contents(backing);
        REQUIRE(after.size() == before.size());
        CHECK(std::equal(before.begin() + static_cast<long>(8 * MiB), before.end(),
                         after.begin() + static_cast<long>(8 * MiB)));
        CHECK_FALSE(std::equal(before.begin(), before.begin() + static_cast<long>(MiB), after.begin()));
    }
    SECTION("destroy, the writes only (select=write)")
    {
        params["mode"] = std::string("destroy");
        params["confirm"] = loop.path();
        params["select"] = std::string("write");
        params["mix"] = std::string("");
        const Target target = open_target_for_write(loop.path());
        const std::uint64_t reads_before = loop.completed_reads();
        const Result result = run("profile", target, params);
        CHECK(std::get<std::string>(result.summary.at("written_tests")) == "SEQ1M Q2T1,RND4K Q4T1");
        CHECK(result.summary.count("seq1m_q2t1.throughput_mb_s") == 0);
        CHECK(number(result, "rnd4k_q4t1.write_iops") > 0);
        CHECK(number(result, "rnd4k_q4t1.write_cpu_percent") > 0);
        CHECK(result.summary.count("mix.total_mb_s") == 0);
        CHECK(loop.completed_reads() - reads_before < 16); // nothing of the tests read (udev may look once)
    }
    SECTION("preserve")
    {
        const Target target = open_target_for_write(loop.path());
        const Result result = run("profile", target, params);
        CHECK(std::get<std::string>(result.summary.at("mode")) == "preserve");
        CHECK(std::get<std::string>(result.summary.at("sync_rule")) == "batch");
        CHECK(std::get<std::string>(result.summary.at("written_tests")) == "SEQ1M Q2T1");
        CHECK(std::get<std::string>(result.summary.at("tests")) == "SEQ1M Q2T1,RND4K Q4T1"); // no mixed test
        CHECK(number(result, "seq1m_q2t1.write_throughput_mb_s") > 0);
        CHECK(result.summary.count("rnd4k_q4t1.write_throughput_mb_s") == 0);
        CHECK(mentions(result.notes, "RND4K Q4T1 not written: keeping the data"));
        CHECK(contents(backing) == before);
    }
    SECTION("refusals before any I/O")
    {
        const Target target = open_target_for_write(loop.path());
        ValueMap destroy = params;
        destroy["mode"] = std::string("destroy");
        CHECK(rejected_key("profile", target, destroy) == "confirm");
        destroy["confirm"] = loop.path();
        destroy["mix"] = std::string("MIXED");
        CHECK(rejected_key("profile", target, destroy) == "mix");
        ValueMap only_writes = params;
        only_writes["write"] = false;
        only_writes["select"] = std::string("write");
        CHECK(rejected_key("profile", target, only_writes) == "select");
        CHECK(contents(backing) == before);
    }
}

TEST_CASE("write kinds refuse a destroy without confirm and a preserve they cannot keep", "[device-writes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 3);
    const std::string before = sha256(backing);
    {
        LoopDevice loop(backing, 4096);
        const Target target = open_target_for_write(loop.path());
        const ValueMap destroy { { "mode", std::string("destroy") } };
        const ValueMap confirmed { { "mode", std::string("destroy") }, { "confirm", loop.path() } };
        for (const std::string kind : { "device-write", "device-write-sweep", "sustained-write" }) {
            INFO(kind);
            const BenchmarkInfo& info = *find_benchmark(kind);
            CHECK(info.target() == TargetKind::DeviceWrite);
            CHECK(info.writes_device);
            CHECK(rejected_key(kind, target, destroy) == "confirm");
            CHECK(rejected_key(kind, target, { { "mode", std::string("destroy") }, { "confirm", std::string() } })
                  == "confirm");
            CHECK(rejected_key(kind, target, confirmed) == "(accepted)");
            // run_benchmark refuses the same way, before any I/O.
            CHECK_THROWS_AS(run(kind, target, destroy), ParameterError);
        }
        CHECK(rejected_key("device-write", target, {}) == "(accepted)");
        CHECK(rejected_key("device-write-sweep", target, {}) == "mode");
        CHECK(rejected_key("sustained-write", target, { { "mode", std::string("preserve") } }) == "mode");
        CHECK(rejected_key("device-write-sweep", target, { { "mode", std::string("destroy") }, { "confirm", loop.path() },
                                                          { "repetitions", std::uint64_t { 8 } } })
              == "repetitions");
        CHECK(rejected_key("device-write", target, { { "mode", std::string("wipe") } }) == "mode");
        // sync_every in whole logical blocks (4096 bytes here).
        for (const std::string kind : { "device-write", "sustained-write" }) {
            ValueMap uneven = confirmed;
            uneven["sync_every"] = std::uint64_t { 1000 };
            CHECK(rejected_key(kind, target, uneven) == "sync_every");
        }
        // The read benchmarks stay what they were.
        CHECK(find_benchmark("sequential")->target() == TargetKind::Device);
        CHECK_FALSE(find_benchmark("sequential")->writes_device);

        // A target opened for reading is no target for a write kind.
        const Target read_only = open_target_for_read(loop.path());
        CHECK_THROWS_AS(run("device-write", read_only, small_params("device-write", "psync")), TargetError);
    }
    CHECK(sha256(backing) == before);
}

TEST_CASE("open_target_for_write refuses a mounted device as busy and what is no device", "[device-writes][loop]")
{
    MountedFilesystem mount(MountedFilesystem::Kind::Ext4, 32 * MiB);
    const std::string node = mount.device()->path();
    std::uint64_t before = 0;
    {
        // Frozen while its bytes are compared: ext4 still writes metadata
        // of its own some while after mounting (the journal's tail after
        // a commit), and the open tries for a second before it refuses
        // (CI saw the device change meanwhile). What is checked is that
        // the refused open wrote nothing.
        const FrozenFilesystem frozen(mount.path());
        before = checksum(node);
        try {
            open_target_for_write(node);
            FAIL("a mounted device was opened for writing");
        } catch (const DeviceBusyError& error) {
            CHECK_THAT(error.what(), Catch::Contains(node) && Catch::Contains("in use"));
        }
        CHECK(checksum(node) == before);
    }
    // Reading it stays allowed.
    CHECK_NOTHROW(open_target_for_read(node));

    ScratchDir dir;
    const auto fifo = dir.path() / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THROWS_WITH(open_target_for_write(fifo.string()), Catch::Contains("not a block device or regular file"));
    CHECK_THROWS_AS(open_target_for_write(dir.path().string()), TargetError);
    CHECK_THROWS_AS(open_target_for_write((dir.path() / "missing").string()), TargetError);
    // A regular file is writable without O_EXCL.
    const auto file = make_data_file(dir, "file", MiB);
    CHECK(open_target_for_write(file.string()).size == MiB);
}

TEST_CASE("an open write target holds the device: it cannot be mounted meanwhile", "[device-writes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 5);
    LoopDevice loop(backing, 512);
    const Target held = open_target_for_write(loop.path());
    CHECK_THROWS_AS(open_target_for_write(loop.path()), DeviceBusyError);
    // It holds the device's BSD lock too, which udev and partitioning
    // tools honour (they open without O_EXCL).
    const UniqueFd plain(::open(loop.path().c_str(), O_RDONLY | O_CLOEXEC));
    REQUIRE(plain.valid());
    CHECK(::flock(plain.get(), LOCK_SH | LOCK_NB) == -1);
    CHECK(errno == EWOULDBLOCK);
}

TEST_CASE("a device another program has locked is busy for writes", "[device-writes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 6);
    LoopDevice loop(backing, 512);
    const std::uint64_t before = checksum(loop.path());
    {
        // As systemd-repart or mkfs would: a plain open and the lock.
        const UniqueFd locker(::open(loop.path().c_str(), O_RDONLY | O_CLOEXEC));
        REQUIRE(locker.valid());
        REQUIRE(::flock(locker.get(), LOCK_EX) == 0);
        try {
            open_target_for_write(loop.path());
            FAIL("a locked device was opened for writing");
        } catch (const DeviceBusyError& error) {
            CHECK_THAT(error.what(), Catch::Contains(loop.path()) && Catch::Contains("lock"));
        }
        // The failed attempt let go of its O_EXCL claim too.
    }
    CHECK_NOTHROW(open_target_for_write(loop.path()));
    CHECK(checksum(loop.path()) == before);
}

TEST_CASE("a device claimed or locked for a moment, as udev does after a write, is waited for", "[device-writes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 7);
    LoopDevice loop(backing, 512);
    // udev on a writer's close: an exclusive claim (its partition table
    // re-read), then a probe under the shared lock. Each is let go of a
    // moment after the write target is asked for; the patience is a second.
    constexpr auto held_for = std::chrono::milliseconds(150);
    for (const bool claim : { true, false }) {
        INFO((claim ? "O_EXCL claim" : "shared BSD lock"));
        UniqueFd holder(::open(loop.path().c_str(), O_RDONLY | O_CLOEXEC | (claim ? O_EXCL : 0)));
        REQUIRE(holder.valid());
        if (!claim)
            REQUIRE(::flock(holder.get(), LOCK_SH) == 0);
        const auto asked = std::chrono::steady_clock::now();
        std::thread udev([&] {
            std::this_thread::sleep_for(held_for);
            holder.reset();
        });
        std::optional<Target> target;
        CHECK_NOTHROW(target.emplace(open_target_for_write(loop.path())));
        udev.join();
        // It was refused at first and got the device once let go of.
        CHECK(std::chrono::steady_clock::now() - asked >= held_for);
        CHECK((target && target->fd.valid()));
    }
}

TEST_CASE("write runs stop when cancelled; a cancelled preserve run still gives every byte back",
          "[device-writes][loop]")
{
    const auto backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    const auto kind = GENERATE(as<std::string> {}, "device-write", "sustained-write", "qd-sweep");
    INFO(kind << " with " << backend);
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 9);
    const std::string before = sha256(backing);
    {
        LoopDevice loop(backing, 4096);
        const Target target = open_target_for_write(loop.path());
        ValueMap params { { "backend", backend } };
        if (kind == "device-write") {
            // Preserve, small sequential writes: many read-and-write-back batches.
            params.insert({ { "size", device_size }, { "block_size", std::uint64_t { 4096 } }, { "duration_s", 30.0 } });
        } else if (kind == "qd-sweep") {
            // Writes keeping the data: short cells (points come soon), so
            // many that the cancel finds it still writing.
            params.insert({ { "writes", true }, { "duration_s", 0.05 }, { "warmup_s", 0.0 },
                            { "max_queue_depth", std::uint64_t { 1024 } }, { "max_threads", std::uint64_t { 64 } },
                            { "region_size", device_size } });
        } else {
            params.insert({ { "mode", std::string("destroy") }, { "confirm", loop.path() }, { "duration_s", 30.0 },
                            { "block_size", std::uint64_t { 65536 } }, { "window_s", 0.05 } });
        }
        RecordingSink sink;
        CancelToken cancel;
        auto running = std::async(std::launch::async,
                                  [&] { return run_benchmark(*find_benchmark(kind), target, validate_request(*find_benchmark(kind), params), &sink, cancel); });
        // Cancel once the run has drawn its first point (the sanitized build
        // needs more than the 300 ms a plain build does), not after a time.
        while (sink.point_count.load() == 0
               && running.wait_for(std::chrono::milliseconds(10)) == std::future_status::timeout) {
        }
        REQUIRE(running.wait_for(std::chrono::seconds(0)) == std::future_status::timeout);
        const auto asked = std::chrono::steady_clock::now();
        cancel.cancel();
        const Result result = running.get();
        const auto took = std::chrono::steady_clock::now() - asked;
        CHECK(took < prompt_bound(300));
        CHECK(result.cancelled);
        CHECK(sink.last_progress < 1.0);
        CHECK(sink.point_count.load() > 0);
    }
    if (kind != "sustained-write")
        CHECK(sha256(backing) == before);
}

namespace {

// Writes `pattern` at `offset` of `node` through a descriptor of its own
// (no O_EXCL: nothing in the kernel refuses it) the first time a point
// arrives, as another program would while the run writes.
class WritingSink final : public SampleSink {
public:
    WritingSink(std::string node, std::uint64_t offset, std::vector<std::byte> pattern)
        : node_(std::move(node)), offset_(offset), pattern_(std::move(pattern))
    {
    }
    void series_added(std::size_t, const SeriesInfo&) override {}
    void point_added(std::size_t, const SeriesPoint&) override
    {
        if (wrote)
            return;
        wrote = true;
        const UniqueFd other(::open(node_.c_str(), O_WRONLY | O_CLOEXEC));
        REQUIRE(other.valid());
        REQUIRE(::pwrite(other.get(), pattern_.data(), pattern_.size(), static_cast<off_t>(offset_))
                == static_cast<ssize_t>(pattern_.size()));
        REQUIRE(::fsync(other.get()) == 0);
    }
    void progress_changed(double) override {}
    bool wrote = false;

private:
    std::string node_;
    std::uint64_t offset_;
    std::vector<std::byte> pattern_;
};

} // namespace

TEST_CASE("a preserve run stops at the first write it did not issue, and undoes none of it",
          "[device-writes][loop]")
{
    const auto kind = GENERATE(as<std::string> {}, "device-write", "qd-sweep", "overview");
    INFO(kind);
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 21);
    std::vector<char> expected = contents(backing);
    // Beyond every range the run writes ([0, 8 MiB), the sweep's region,
    // the overview's samples are at other places but it gets one too).
    const std::uint64_t offset = kind == "overview" ? 3 * MiB + 512 * 1024 : 16 * MiB;
    std::vector<std::byte> pattern(4096, std::byte { 0x5a });
    std::memcpy(expected.data() + offset, pattern.data(), pattern.size());
    {
        LoopDevice loop(backing, 512);
        const Target target = open_target_for_write(loop.path());
        ValueMap params;
        if (kind == "device-write")
            params = { { "size", 8 * MiB }, { "block_size", std::uint64_t { 65536 } }, { "region_size", 8 * MiB },
                       { "duration_s", 30.0 } };
        else if (kind == "qd-sweep")
            params = { { "writes", true }, { "duration_s", 0.2 }, { "warmup_s", 0.0 },
                       { "region_size", 8 * MiB } };
        else
            params = { { "write", true }, { "samples", std::uint64_t { 400 } },
                       { "sample_size", std::uint64_t { 4096 } }, { "block_size", std::uint64_t { 4096 } },
                       { "access_reads", std::uint64_t { 0 } } };
        WritingSink sink(loop.path(), offset, pattern);
        CancelToken cancel;
        try {
            run_benchmark(*find_benchmark(kind), target, validate_request(*find_benchmark(kind), params), &sink, cancel);
            FAIL("the run went on after another program wrote to the device");
        } catch (const DeviceBusyError& error) {
            CHECK_THAT(error.what(), Catch::Contains(loop.path())
                                         && Catch::Contains("another program wrote 4 KiB to the device"));
        }
        REQUIRE(sink.wrote);
    }
    // What the other program wrote is there; every other byte as it was.
    const std::vector<char> after = contents(backing);
    REQUIRE(after.size() == expected.size());
    CHECK(std::memcmp(after.data() + offset, pattern.data(), pattern.size()) == 0);
    CHECK((after == expected));
}

TEST_CASE("a raw write refuses a device another program holds open, naming it", "[device-writes][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", device_size, 22);
    const std::string before = sha256(backing);
    {
        LoopDevice loop(backing, 512);
        // As QEMU on a raw disk or dd would: a plain open, no O_EXCL, no flock.
        const std::string command = "exec sleep 600 <> " + loop.path();
        const pid_t holder = ::fork();
        REQUIRE(holder >= 0);
        if (holder == 0) {
            ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        const auto ended = [holder] {
            ::kill(holder, SIGKILL);
            ::waitpid(holder, nullptr, 0);
        };
        // Until the shell has become sleep with the device open.
        const dev_t device = [&] {
            struct stat st {};
            REQUIRE(::stat(loop.path().c_str(), &st) == 0);
            return st.st_rdev;
        }();
        const std::string fd0 = "/proc/" + std::to_string(holder) + "/fd/0";
        for (struct stat st {}; !(::stat(fd0.c_str(), &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == device);)
            std::this_thread::yield();
        try {
            const Target target = open_target_for_write(loop.path()); // O_EXCL and the lock do not see it
            ValueMap params = small_params("device-write", "psync");
            CancelToken cancel;
            run_benchmark(*find_benchmark("device-write"), target, validate_request(*find_benchmark("device-write"), params), nullptr, cancel);
            ended();
            FAIL("a device another program holds was written");
        } catch (const DeviceBusyError& error) {
            ended();
            CHECK_THAT(error.what(), Catch::Contains("the device is open in another program")
                                         && Catch::Contains("sleep (pid " + std::to_string(holder) + ")"));
        }
    }
    CHECK(sha256(backing) == before);
}

TEST_CASE("the holders of a device's node are read from /proc/locks", "[faults]")
{
    // The node /dev/loop7 is inode 613 on devtmpfs (00:05); POSIX, OFD
    // (no pid), flock, a waiter and another inode's lock.
    const std::string locks = "1: POSIX  ADVISORY  WRITE 4242 00:05:613 0 EOF\n"
                              "2: OFDLCK ADVISORY  READ  -1 00:05:613 100 101\n"
                              "3: FLOCK  ADVISORY  WRITE 77 00:05:613 0 EOF\n"
                              "3: -> FLOCK  ADVISORY  WRITE 4243 00:05:613 0 EOF\n"
                              "4: POSIX  ADVISORY  WRITE 5000 00:05:614 0 EOF\n"
                              "5: POSIX  ADVISORY  WRITE 5001 fd:01:613 0 EOF\n"
                              "garbage\n";
    const auto holders = storage::lock_holders(locks, ::makedev(0, 5), 613, 77);
    REQUIRE(holders.size() == 3);
    CHECK(holders[0].pid == 4242);
    CHECK(holders[1].pid == -1);
    CHECK(holders[2].pid == 4243);
    CHECK(storage::holders_text({ { 4242, "qemu-system-x86" }, { -1, "" }, { 9, "" } })
          == "qemu-system-x86 (pid 4242), a lock without a process id (an open file description lock), pid 9");
}

TEST_CASE("steady-state detection on made-up series", "[steady-state]")
{
    SECTION("flat: steady from the start, no cliff")
    {
        const auto analysis = analyse_sustained(windows(std::vector<double>(20, 500.0)));
        CHECK(analysis.steady_state);
        CHECK_FALSE(analysis.cliff);
        CHECK(analysis.cliff_at_bytes == 0);
        CHECK(analysis.burst_mb_s == Approx(500));
        CHECK(analysis.steady_mb_s == Approx(500));
    }
    SECTION("an SLC cache cliff, then steady")
    {
        std::vector<double> rates(8, 2000.0);
        rates.push_back(1300); // the cache fills during this window
        rates.insert(rates.end(), 20, 400.0);
        const auto series = windows(rates);
        const auto analysis = analyse_sustained(series);
        CHECK(analysis.steady_state);
        REQUIRE(analysis.cliff);
        CHECK(analysis.cliff_window == 9); // 1300 is above the midpoint of 2000 and 400
        CHECK(analysis.cliff_at_bytes == series[9].bytes_before);
        CHECK(analysis.cliff_at_bytes == static_cast<std::uint64_t>((8 * 2000 + 1300) * 1e6));
        CHECK(analysis.cliff_at_s == Approx(9));
        CHECK(analysis.burst_mb_s == Approx((8 * 2000.0 + 1300) / 9));
        // A window below the midpoint is the cliff's.
        rates[8] = 1100;
        CHECK(analyse_sustained(windows(rates)).cliff_window == 8);
        CHECK(analysis.steady_mb_s == Approx(400));
    }
    SECTION("noisy around a level: steady, and no cliff")
    {
        std::mt19937 random(42);
        std::uniform_real_distribution<double> noise(-0.06, 0.06);
        std::vector<double> rates;
        for (int i = 0; i < 30; ++i)
            rates.push_back(300 * (1 + noise(random)));
        const auto analysis = analyse_sustained(windows(rates));
        CHECK(analysis.steady_state);
        CHECK_FALSE(analysis.cliff);
        CHECK(analysis.steady_mb_s == Approx(300).epsilon(0.06));
    }
    SECTION("never steady: still falling, or swinging widely")
    {
        std::vector<double> falling;
        for (int i = 0; i < 30; ++i)
            falling.push_back(1000 - 25.0 * i);
        CHECK_FALSE(analyse_sustained(windows(falling)).steady_state);
        std::vector<double> swinging;
        for (int i = 0; i < 30; ++i)
            swinging.push_back(i % 2 ? 200 : 400);
        const auto analysis = analyse_sustained(windows(swinging));
        CHECK_FALSE(analysis.steady_state);
        CHECK_FALSE(analysis.cliff);
    }
    SECTION("a slow but steady slope within the band is still refused by the slope limit")
    {
        // Within ±10 % of the mean, but rising 16 % across the five windows.
        const std::vector<double> rising { 92, 96, 100, 104, 108 };
        CHECK_FALSE(is_steady(rising));
        CHECK(is_steady(std::vector<double> { 97, 103, 99, 101, 100 }));
    }
    SECTION("the steady-state test's window, as SNIA reports it")
    {
        // A drive that falls off its fresh level and settles: rounds 1-4
        // fresh and falling, steady from round 5.
        std::vector<double> rounds { 90000, 60000, 35000, 24000, 21000, 20500, 21200, 20800, 21100 };
        const SteadyWindow settled = measure_window(rounds);
        CHECK(settled.measured);
        CHECK(settled.steady);
        CHECK(settled.mean == Approx((21000 + 20500 + 21200 + 20800 + 21100) / 5.0));
        CHECK(settled.excursion * 100 == Approx(700.0 / settled.mean * 100));
        CHECK(settled.slope < 0.10);
        // A made-up series that never settles: each round 15 % below the one
        // before, so every window of five has a slope far beyond 10 %, though
        // its neighbours lie close to each other.
        std::vector<double> sliding { 50000 };
        for (int round = 1; round < 40; ++round) {
            sliding.push_back(sliding.back() * 0.85);
            const SteadyWindow window = measure_window(sliding);
            CHECK(window.measured == (sliding.size() >= 5));
            CHECK_FALSE(window.steady);
            if (window.measured)
                CHECK(window.slope > 0.10);
        }
        // A series that swings: excursion beyond SNIA's 20 %, no trend.
        const SteadyWindow swinging = measure_window(std::vector<double> { 100, 130, 100, 130, 100 });
        CHECK_FALSE(swinging.steady);
        CHECK(swinging.excursion > 0.20);
        CHECK(swinging.slope < 0.10);
        CHECK_FALSE(measure_window(std::vector<double> { 1, 1, 1, 1 }).measured);
        CHECK_FALSE(measure_window(std::vector<double> { 0, 0, 0, 0, 0 }).steady);
    }
    SECTION("too short to tell")
    {
        const auto analysis = analyse_sustained(windows({ 500, 500, 500 }));
        CHECK_FALSE(analysis.steady_state);
        CHECK(analysis.steady_mb_s == Approx(500));
        CHECK(analyse_sustained({}).burst_mb_s == 0);
    }
}
