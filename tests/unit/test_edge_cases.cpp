// SPDX-License-Identifier: GPL-3.0-or-later
// Tiny targets, parameters that do not fit the target, and the automatic
// fallback to psync when io_uring is unavailable.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "io/io_runner.hpp"
#include "io/target.hpp"
#include "parameter_checks.hpp"
#include "recording_sink.hpp"
#include "result_checks.hpp"
#include "scratch.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <cstddef>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

// Makes io_uring_setup fail with ENOSYS in this process, as a seccomp policy
// or io_uring_disabled=2 would. Only ever called in a forked child.
bool forbid_io_uring()
{
    sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    sock_fprog program { static_cast<unsigned short>(std::size(filter)), filter };
    return ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0
        && ::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

} // namespace

TEST_CASE("every benchmark completes on tiny targets, scaled down with a note", "[edge][loop]")
{
    ScratchDir dir;
    const auto small_file = make_data_file(dir, "small", 8192);
    const auto backing = make_data_file(dir, "backing", 64 * 1024);
    LoopDevice loop(backing, 4096);
    for (const std::string& path : { small_file.string(), loop.path() }) {
        const Target target = open_target_for_read(path);
        for (const auto& info : all_benchmarks()) {
            if (info.target() != TargetKind::Device)
                continue; // tested in test_fs_benchmarks.cpp
            INFO(path << ": " << info.kind);
            ValueMap params;
            if (info.kind == "profile" || info.kind == "qd-sweep")
                params = { { "duration_s", 0.05 }, { "warmup_s", 0.0 }, { "max_threads", std::uint64_t { 2 } },
                           { "max_queue_depth", std::uint64_t { 2 } } };
            if (info.kind == "profile")
                params.erase("max_threads"), params.erase("max_queue_depth");
            RecordingSink sink;
            CancelToken cancel;
            const Result result = run_benchmark(info, target, validate_request(info, params), &sink, cancel);
            CHECK_FALSE(result.cancelled);
            CHECK(sink.point_count.load() > 0);
            if (info.kind != "seek" && info.kind != "qd-sweep")
                CHECK((mentions(result.notes, "scaled down") || mentions(result.notes, "left out")
                       || mentions(result.notes, "buckets instead")));
        }
    }
}

TEST_CASE("parameters that do not fit the target are rejected before any I/O", "[edge][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 4 * MiB);
    LoopDevice loop(backing, 4096);
    const Target target = open_target_for_read(loop.path());

    // Zero.
    CHECK(rejected_key("seek", target, { { "count", std::uint64_t { 0 } } }) == "count");
    CHECK(rejected_key("surface", target, { { "buckets", std::uint64_t { 0 } } }) == "buckets");
    // Misaligned for a 4 KiB-sector device.
    CHECK(rejected_key("seek", target, { { "block_size", std::uint64_t { 512 } } }) == "block_size");
    CHECK(rejected_key("sequential", target, { { "block_size", std::uint64_t { 6000 } } }) == "block_size");
    CHECK(rejected_key("sequential", target, { { "offset", std::uint64_t { 100 } } }) == "offset");
    CHECK(rejected_key("profile", target, { { "tests", std::string("RND2K Q1T1") } }) == "tests");
    CHECK(rejected_key("random", target, { { "max_block", std::uint64_t { 3 * 4096 } } }) == "max_block");
    // Larger than the device, when the caller asked for it.
    CHECK(rejected_key("sequential", target, { { "size", std::uint64_t { 8 * MiB } } }) == "size");
    CHECK(rejected_key("sequential", target, { { "offset", std::uint64_t { 4 * MiB } } }) == "offset");
    CHECK(rejected_key("block", target, { { "amount_per_size", std::uint64_t { 5 * MiB } } }) == "amount_per_size");
    CHECK(rejected_key("random", target, { { "max_block", std::uint64_t { 8 * MiB } } }) == "max_block");
    CHECK(rejected_key("profile", target, { { "tests", std::string("SEQ8M Q1T1") } }) == "tests");
    CHECK(rejected_key("qd-sweep", target, { { "region_size", std::uint64_t { 8 * MiB } } }) == "region_size");
    // Nonsense combinations.
    CHECK(rejected_key("random", target, { { "min_block", std::uint64_t { 65536 } }, { "max_block", std::uint64_t { 8192 } } })
          == "max_block");
    CHECK(rejected_key("qd-sweep", target, { { "max_queue_depth", std::uint64_t { 3 } } }) == "max_queue_depth");
    CHECK(rejected_key("profile", target, { { "tests", std::string("fast please") } }) == "tests");
    CHECK(rejected_key("seek", target, { { "backend", std::string("aio") } }) == "backend");
    // More in flight than the daemon may take on for one caller.
    CHECK(rejected_key("profile", target, { { "tests", std::string("RND1M Q1024T64") } }) == "tests");
    CHECK(rejected_key("profile", target, { { "tests", std::string("SEQ1M Q64T32") } }) == "tests");
    // (The queue-depth sweep's grid may reach past the limit: its cells of
    // more than 1024 reads in flight are left out, not refused; see
    // test_benchmarks' grid test.)
    CHECK(rejected_key("qd-sweep", target, { { "max_queue_depth", std::uint64_t { 1024 } }, { "max_threads", std::uint64_t { 64 } } })
          == "(accepted)");
    CHECK(rejected_key("sequential", target, { { "queue_depth", std::uint64_t { 1024 } }, { "block_size", std::uint64_t { 2 * MiB } } })
          == "queue_depth");
    CHECK(rejected_key("random", target, { { "queue_depth", std::uint64_t { 1024 } }, { "max_block", std::uint64_t { 2 * MiB } } })
          == "queue_depth");
    // Amounts that would put reads at unaligned offsets.
    CHECK(rejected_key("block", target, { { "amount_per_size", std::uint64_t { MiB + 1 } } }) == "amount_per_size");
    CHECK(rejected_key("profile", target, { { "region_size", std::uint64_t { 12000 } }, { "tests", std::string("SEQ4K Q1T4") } })
          == "region_size");
    // The defaults fit (scaled down).
    for (const auto& info : all_benchmarks())
        if (info.target() == TargetKind::Device)
            CHECK(rejected_key(std::string(info.kind), target, {}) == "(accepted)");
}

TEST_CASE("a target error is an engine error, not a crash", "[edge]")
{
    CHECK_THROWS_AS(IoRunner(BackendPreference::Automatic).run(open_target_for_read("/dev/null"), {}), TargetError);
}

TEST_CASE("without io_uring the automatic backend falls back to psync and says so", "[edge]")
{
    ScratchDir dir;
    const auto path = make_data_file(dir, "data", 4 * MiB);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // In the child only: no Catch2 assertions here, the exit code reports.
        int code = 0;
        try {
            if (!forbid_io_uring())
                ::_exit(10);
            const IoRunner runner(BackendPreference::Automatic);
            if (runner.backend() != BackendKind::Psync || runner.fallback_reason().empty())
                code = 11;
            const Target target = open_target_for_read(path);
            CancelToken cancel;
            const Result result = run_benchmark(*find_benchmark("seek"), target,
                                                validate_request(*find_benchmark("seek"), { { "count", std::uint64_t { 20 } } }), nullptr, cancel);
            if (result.backend != "psync" || !mentions(result.warnings, "io_uring is not available"))
                code = 12;
            if (result.series.at(0).points.size() != 20)
                code = 13;
            bool refused = false;
            try {
                IoRunner forced(BackendPreference::IoUring);
            } catch (const Error&) {
                refused = true;
            }
            if (!refused)
                code = 14;
        } catch (...) {
            code = 15;
        }
        ::_exit(code);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
}
