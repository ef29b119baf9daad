// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark.hpp"
#include "io/target.hpp"
#include "recording_sink.hpp"
#include "scratch.hpp"
#include "slowdown.hpp"

#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <thread>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {
constexpr std::uint64_t MiB = 1024 * 1024;
}

TEST_CASE("a benchmark cancelled from another thread stops within 100 ms with what it measured", "[cancel][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 64 * MiB);
    LoopDevice loop(backing);
    const auto backend = GENERATE(as<std::string> {}, "io_uring", "psync");
    const auto kind = GENERATE(as<std::string> {}, "sequential", "profile", "surface");
    INFO(kind << " with " << backend);

    // Small reads at QD1 so a run lasts seconds, not milliseconds.
    ValueMap params { { "backend", backend } };
    if (kind == "sequential")
        params.insert({ { "block_size", std::uint64_t { 4096 } }, { "size", std::uint64_t { 64 * MiB } } });
    else if (kind == "surface")
        params.insert({ { "block_size", std::uint64_t { 4096 } } });
    else
        params.insert({ { "tests", std::string("RND4K Q1T1, SEQ1M Q8T1") }, { "duration_s", 30.0 } });

    const Target target = open_target_for_read(loop.path());
    RecordingSink sink;
    CancelToken cancel;
    auto running = std::async(std::launch::async,
                              [&] { return run_benchmark(*find_benchmark(kind), target, validate_request(*find_benchmark(kind), params), &sink, cancel); });
    // Cancel once the run is under way (it has said some progress, and drawn a
    // point where its points come as it reads), not after a time: a
    // sanitized build on a busy machine starts slower.
    const auto under_way = [&] { return sink.progressed.load() && (kind == "profile" || sink.point_count.load() > 0); };
    while (!under_way() && running.wait_for(std::chrono::milliseconds(10)) == std::future_status::timeout) {
    }
    REQUIRE(running.wait_for(std::chrono::seconds(0)) == std::future_status::timeout); // still running
    const auto asked = std::chrono::steady_clock::now();
    cancel.cancel();
    const Result result = running.get();
    const auto took = std::chrono::steady_clock::now() - asked;

    CHECK(took < prompt_bound(100));
    CHECK(result.cancelled);
    CHECK(sink.last_progress < 1.0);
    if (kind != "profile") // the profile's first point comes only when its first test ends
        CHECK(sink.point_count.load() > 0);
    CHECK(sink.last_progress > 0.0);
}
