// SPDX-License-Identifier: GPL-3.0-or-later
// The burst rate (HD Tune's): one small region read again and again, on a
// file and on a loop device (direct I/O to its backing file), with both
// I/O backends: MB/s per 50 ms window over the measured time, the
// summary's rate, extremes and bytes agreeing with them, and the
// parameters a cache-sized region needs checked before any read.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "io/target.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "scratch.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/burst.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace burst_keys = diskbench::contract::kinds::keys::burst;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

Result run_burst(const std::string& path, ValueMap params, RecordingSink& sink, const std::string& backend = "auto")
{
    const BenchmarkInfo* info = find_benchmark(diskbench::contract::kinds::burst);
    REQUIRE(info != nullptr);
    params["backend"] = backend;
    const Target target = open_target_for_read(path);
    CancelToken cancel;
    return run_benchmark(*info, target, validate_request(*info, params), &sink, cancel);
}

// The key a ParameterError names for these parameters, or "" when the
// request is taken (checked as the daemon checks, before any read).
std::string refused_key(const std::string& path, const ValueMap& params)
{
    const BenchmarkInfo* info = find_benchmark(diskbench::contract::kinds::burst);
    REQUIRE(info != nullptr);
    try {
        const Target target = open_target_for_read(path);
        check_benchmark(*info, target, validate_request(*info, params));
    } catch (const ParameterError& e) {
        return std::string(e.key());
    }
    return {};
}

} // namespace

TEST_CASE("burst: a window's MB/s over the measured time, the summary from the same reads", "[benchmarks][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 16 * MiB, 21);
    std::optional<LoopDevice> loop;
    const auto target_kind = GENERATE(as<std::string> {}, "file", "loop");
    const auto backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    std::string path = backing.string();
    if (target_kind == "loop") {
        loop.emplace(backing, 512);
        REQUIRE(loop->direct_io());
        path = loop->path();
    }
    INFO(target_kind << " with " << backend);
    const std::uint64_t before = checksum(backing);

    RecordingSink sink;
    const Result result = run_burst(path, { { "duration_s", 0.3 }, { "warmup_s", 0.05 } }, sink, backend);
    CHECK_FALSE(result.cancelled);
    CHECK(result.backend == backend);
    CHECK(sink.last_progress == 1.0);
    CHECK(sink.progress_monotonic);

    const Series& throughput = series_named(result, "throughput");
    CHECK(throughput.info.x_unit == "s");
    CHECK(throughput.info.y_unit == "MB/s");
    // 0.3 s in windows of 50 ms: six, the last perhaps cut short by the end.
    CHECK(throughput.points.size() >= 4);
    CHECK(throughput.points.size() <= 6);
    double last = 0, slowest = 1e300, fastest = 0;
    for (const auto& point : throughput.points) {
        CHECK(point.x >= 0.05 * 0.99);
        CHECK(point.x > last);
        CHECK(point.y > 0);
        last = point.x;
        slowest = std::min(slowest, point.y);
        fastest = std::max(fastest, point.y);
    }
    CHECK(last < 0.3 + 0.05);
    CHECK(number(result, std::string(burst_keys::throughput_min_mb_s)) == slowest);
    CHECK(number(result, std::string(burst_keys::throughput_max_mb_s)) == fastest);
    // The run's rate is its bytes over its time: within the windows'
    // extremes but for the short remainder after the last window.
    const double burst = number(result, std::string(burst_keys::burst_mb_s));
    CHECK(burst >= slowest * 0.5);
    CHECK(burst <= fastest * 1.5);
    // Whole 128 KiB reads of the 1 MiB region, round and round.
    const double bytes = number(result, std::string(burst_keys::bytes));
    CHECK(static_cast<std::uint64_t>(bytes) % (128 * 1024) == 0);
    CHECK(bytes > MiB);
    CHECK(number(result, std::string(burst_keys::region_size)) == MiB);
    CHECK(number(result, "latency_mean_us") > 0);
    // A read benchmark: the target unchanged.
    CHECK(checksum(backing) == before);
}

TEST_CASE("burst: a region a cache holds, at least one read long, within the device", "[benchmarks]")
{
    ScratchDir dir;
    const std::string small = make_data_file(dir, "small", 4 * MiB, 22).string();
    CHECK(refused_key(small, {}).empty());
    // Larger than a drive's cache would measure the medium: refused.
    CHECK(refused_key(small, { { "region_size", 65 * MiB } }) == "region_size");
    CHECK(refused_key(small, { { "region_size", std::uint64_t { 0 } } }) == "region_size");
    // Not one read of the asked size fits in the region.
    CHECK(refused_key(small, { { "region_size", 64 * 1024ULL }, { "block_size", 128 * 1024ULL } }) == "region_size");
    CHECK(refused_key(small, { { "queue_depth", std::uint64_t { 0 } } }) == "queue_depth");
    CHECK(refused_key(small, { { "block_size", 32 * MiB } }) == "block_size");
    // A region past the end of the device is refused, not read past it.
    CHECK(refused_key(small, { { "region_size", 8 * MiB } }) == "region_size");
}
