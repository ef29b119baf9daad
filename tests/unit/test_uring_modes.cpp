// SPDX-License-Identifier: GPL-3.0-or-later
// The io_uring worker's ways of driving the ring (registered ring fd, fixed
// file, fixed buffers, polling before sleeping, waiting for batches of
// completions) against the plain way: the
// same requests, the same bytes on disk, and a result that says which ran.
// DISKBENCH_IO_URING_OFF refuses features the way an old kernel or a
// memlock limit would; it exists for these tests and the perf benchmark.
#include "base/prng.hpp"
#include "benchmark.hpp"
#include "io/io_runner.hpp"
#include "io/request_sources.hpp"
#include "io/target.hpp"
#include "scratch.hpp"

#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

// Sets DISKBENCH_IO_URING_OFF for one scope (the runs read it when their
// rings are set up) and puts back what was there.
class FeaturesOff {
public:
    explicit FeaturesOff(const std::string& names)
    {
        if (const char* old = std::getenv(kName))
            old_ = old;
        ::setenv(kName, names.c_str(), 1);
    }
    ~FeaturesOff()
    {
        if (old_)
            ::setenv(kName, old_->c_str(), 1);
        else
            ::unsetenv(kName);
    }
    FeaturesOff(const FeaturesOff&) = delete;
    FeaturesOff& operator=(const FeaturesOff&) = delete;

private:
    static constexpr const char* kName = "DISKBENCH_IO_URING_OFF";
    std::optional<std::string> old_;
};

class RecordingObserver final : public CompletionObserver {
public:
    void completed(unsigned, const IoCompletion& completion) override
    {
        std::lock_guard lock(mutex_);
        requests.emplace_back(completion.request.offset, completion.request.length);
        CHECK(completion.completed_ns >= completion.submitted_ns);
    }
    std::vector<std::pair<std::uint64_t, std::uint32_t>> requests;

private:
    std::mutex mutex_;
};

struct ReadRun {
    IoRunStats stats;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> requests;
};

ReadRun random_reads(const Target& target, unsigned depth)
{
    Xoshiro256StarStar rng(42);
    RecordingObserver observer;
    IoRunSpec spec;
    spec.queue_depth = depth;
    spec.max_request_bytes = 4096;
    spec.observer = &observer;
    spec.make_source = [&](unsigned) { return std::make_unique<RandomSource>(rng, 0, target.size, 4096, 4096, 500); };
    ReadRun run { IoRunner(BackendPreference::IoUring).run(target, spec), {} };
    run.requests = std::move(observer.requests);
    std::sort(run.requests.begin(), run.requests.end());
    return run;
}

std::string file_bytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

std::string write_file(const std::filesystem::path& path, unsigned depth)
{
    {
        UniqueFd fd(::open(path.c_str(), O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0600));
        REQUIRE(fd.valid());
        const Target target = target_for_scratch_file(std::move(fd), path.string(), 2 * MiB);
        IoRunSpec spec;
        spec.direction = IoDirection::Write;
        spec.data_seed = 9;
        spec.queue_depth = depth;
        spec.max_request_bytes = 64 * 1024;
        spec.make_source = [&](unsigned) { return std::make_unique<SequentialSource>(0, target.size, 64 * 1024, false); };
        const IoRunStats stats = IoRunner(BackendPreference::IoUring).run(target, spec);
        REQUIRE(stats.bytes == 2 * MiB);
    }
    return file_bytes(path);
}

bool has(const std::string& features, const std::string& name)
{
    return ("," + features + ",").find("," + name + ",") != std::string::npos;
}

} // namespace

TEST_CASE("every io_uring mode reads the same requests", "[uring]")
{
    ScratchDir dir;
    const Target target = open_target_for_read(make_data_file(dir, "data", 8 * MiB));
    // 32: deep enough that the worker waits for batches of completions.
    for (const unsigned depth : { 1U, 8U, 32U }) {
        INFO("depth " << depth);
        const ReadRun full = random_reads(target, depth);
        // This kernel (>= 6.1, root) takes everything; a refusal would
        // silently test the plain way twice.
        CHECK(has(full.stats.io_uring_features, "fixed_buffers"));
        CHECK(has(full.stats.io_uring_features, "fixed_file"));
        CHECK(has(full.stats.io_uring_features, "spin_wait"));
        CHECK(has(full.stats.io_uring_features, "batch_wait"));
        for (const char* off : { "all", "fixed_buffers", "fixed_file", "spin_wait", "batch_wait", "defer_taskrun,registered_ring" }) {
            INFO("off: " << off);
            FeaturesOff guard(off);
            const ReadRun plain = random_reads(target, depth);
            CHECK(plain.stats.operations == 500);
            CHECK(plain.stats.bytes == full.stats.bytes);
            CHECK(plain.requests == full.requests);
            CHECK(plain.stats.latency.count() == 500);
            CHECK(plain.stats.io_uring_features != full.stats.io_uring_features);
        }
        FeaturesOff all("all");
        CHECK(random_reads(target, depth).stats.io_uring_features == "plain");
    }
}

TEST_CASE("writes from registered buffers put the same bytes as plain writes", "[uring]")
{
    ScratchDir dir;
    for (const unsigned depth : { 1U, 4U }) {
        INFO("depth " << depth);
        const std::string fixed = write_file(dir.path() / "fixed", depth);
        std::string plain;
        {
            FeaturesOff guard("fixed_buffers,fixed_file");
            plain = write_file(dir.path() / "plain", depth);
        }
        REQUIRE(fixed.size() == 2 * MiB);
        // Every 512-byte sector starts with its own offset (write_data.hpp):
        // a wrong registered buffer index would break that.
        for (std::uint64_t at = 0; at < fixed.size(); at += 512) {
            std::uint64_t stamp = 0;
            std::memcpy(&stamp, fixed.data() + at, sizeof stamp);
            if (stamp != at)
                FAIL("sector at " << at << " stamped " << stamp);
        }
        if (depth == 1) {
            CHECK(fixed == plain);
            continue;
        }
        // Deeper, which slot's data a request gets depends on the order of
        // completions; compare each 64 KiB write's data without the stamps.
        auto unstamped = [](const std::string& bytes, std::uint64_t at) {
            std::string chunk = bytes.substr(at, 64 * 1024);
            for (std::uint64_t sector = 0; sector < chunk.size(); sector += 512)
                std::memset(chunk.data() + sector, 0, sizeof(std::uint64_t));
            return chunk;
        };
        std::set<std::string> plain_chunks;
        for (std::uint64_t at = 0; at < plain.size(); at += 64 * 1024)
            plain_chunks.insert(unstamped(plain, at));
        CHECK(plain_chunks.size() == depth);
        for (std::uint64_t at = 0; at < fixed.size(); at += 64 * 1024)
            CHECK(plain_chunks.contains(unstamped(fixed, at)));
    }
}

TEST_CASE("a result says which io_uring features ran, and psync says none", "[uring]")
{
    ScratchDir dir;
    const Target target = open_target_for_read(make_data_file(dir, "data", 4 * MiB));
    CancelToken cancel;
    const ValueMap params { { "count", std::uint64_t { 20 } } };
    {
        const Result result = run_benchmark(*find_benchmark("seek"), target, validate_request(*find_benchmark("seek"), params), nullptr, cancel);
        CHECK(result.backend == "io_uring");
        REQUIRE(result.summary.contains("io_uring_features"));
        CHECK(has(std::get<std::string>(result.summary.at("io_uring_features")), "fixed_buffers"));
    }
    {
        FeaturesOff guard("fixed_buffers,registered_ring");
        const Result result = run_benchmark(*find_benchmark("seek"), target, validate_request(*find_benchmark("seek"), params), nullptr, cancel);
        CHECK(result.backend == "io_uring"); // the D-Bus Backend values stay as they were
        const auto features = std::get<std::string>(result.summary.at("io_uring_features"));
        CHECK_FALSE(has(features, "fixed_buffers"));
        CHECK_FALSE(has(features, "registered_ring"));
        CHECK(has(features, "fixed_file"));
    }
    ValueMap psync = params;
    psync["backend"] = std::string("psync");
    const Result result = run_benchmark(*find_benchmark("seek"), target, validate_request(*find_benchmark("seek"), psync), nullptr, cancel);
    CHECK(result.backend == "psync");
    CHECK_FALSE(result.summary.contains("io_uring_features"));
}
