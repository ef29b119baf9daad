// SPDX-License-Identifier: GPL-3.0-or-later
// Every benchmark kind draws its threads and buffers from the owner's
// budget (IoRunner::reserve and run()), before it starts them: the kinds
// are taken from the registry, so a new kind that starts threads of its own
// without reserving them fails here. Issue 26, finding 4: mixed-load ran 64
// sorting threads for a user whose budget was all taken.
#include "base/errors.hpp"
#include "benchmark.hpp"
#include "fs_test_support.hpp"
#include "io/resource_budget.hpp"
#include "mounts.hpp"
#include "sandbox/fs_scope.hpp"
#include "scratch.hpp"
#include "small_runs.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>

using namespace diskbench;
using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {

// Threads of this process other than io_uring's kernel workers (their bound
// is tested in test_io_wq_bound.cpp) that still run user code: a thread
// that was just joined may stay listed a moment while the kernel finishes
// its exit, but it has left its memory map by then (vsize 0 in its stat).
std::size_t user_threads()
{
    std::size_t count = 0;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(task.path() / "comm");
        std::string name;
        std::getline(comm, name);
        if (name.rfind("iou-wrk", 0) == 0)
            continue;
        std::ifstream stat_file(task.path() / "stat");
        std::string stat;
        std::getline(stat_file, stat);
        // A thread that ended since the directory was listed has no stat
        // any more: it runs nothing.
        const std::size_t comm_end = stat.rfind(')');
        if (comm_end == std::string::npos || comm_end + 2 > stat.size())
            continue;
        // Fields after "pid (comm) ": state is field 3, vsize field 23.
        std::istringstream fields(stat.substr(comm_end + 2));
        std::string field;
        std::uint64_t vsize = 0;
        for (int number = 3; fields >> field; ++number)
            if (number == 23) {
                vsize = std::stoull(field);
                break;
            }
        count += vsize != 0;
    }
    return count;
}

// At every point and progress report, while the benchmark's threads run:
// the threads beyond those before the run are reserved.
class ThreadAudit final : public SampleSink {
public:
    ThreadAudit(const ResourceBudget& budget, std::size_t baseline) : budget_(budget), baseline_(baseline) {}

    void series_added(std::size_t, const SeriesInfo&) override {}
    void point_added(std::size_t, const SeriesPoint&) override { audit(); }
    void progress_changed(double) override { audit(); }

    std::size_t checks = 0;
    std::size_t worst_excess = 0; // threads running beyond those reserved
    std::uint64_t most_reserved = 0;

private:
    void audit()
    {
        const std::lock_guard lock(mutex_);
        // Read the reservation first: threads only start after it, and a
        // phase that ends gives it back only after its threads are joined.
        const std::uint64_t reserved = budget_.threads_in_use();
        std::size_t running = user_threads();
        // A thread joined a moment ago may still be between its wake-up of
        // the joiner and leaving its memory map: look again before calling
        // it an excess (a real one stays).
        for (int again = 0; again < 1000 && running > baseline_ + reserved; ++again) {
            std::this_thread::yield();
            running = std::min(running, user_threads());
        }
        ++checks;
        most_reserved = std::max(most_reserved, reserved);
        if (running > baseline_ + reserved)
            worst_excess = std::max(worst_excess, running - baseline_ - static_cast<std::size_t>(reserved));
    }

    const ResourceBudget& budget_;
    const std::size_t baseline_;
    std::mutex mutex_;
};

struct Outcome {
    std::string limits_error; // the LimitsError's message, "" when it ran
    std::size_t checks = 0;
    std::size_t worst_excess = 0;
    std::uint64_t most_reserved = 0;
};

// `dir` holds the device kinds' target file and the caller's folder "home".
Outcome run_kind(const BenchmarkInfo& info, const ScratchDir& dir, ResourceBudget& budget)
{
    const ValueMap params = small_run(info.kind);
    CancelToken cancel;
    Outcome outcome;
    try {
        if (info.target() == TargetKind::Directory) {
            const auto home = dir.path() / "home";
            FilesystemScope scope(open_directory(home), home.string(), test_caller());
            ThreadAudit audit(budget, user_threads()); // the scope's thread is not the benchmark's
            try {
                run_directory_benchmark(info, scope, validate_request(info, params), &audit, cancel, &budget);
            } catch (...) {
                outcome.checks = audit.checks;
                throw;
            }
            outcome = { "", audit.checks, audit.worst_excess, audit.most_reserved };
        } else {
            const auto file = dir.path() / "target";
            const Target target = info.target_for(params) == TargetKind::DeviceWrite
                ? open_target_for_write(file.string())
                : open_target_for_read(file.string());
            ThreadAudit audit(budget, user_threads());
            run_benchmark(info, target, validate_request(info, params), &audit, cancel, &budget);
            outcome = { "", audit.checks, audit.worst_excess, audit.most_reserved };
        }
    } catch (const LimitsError& error) {
        outcome.limits_error = error.what();
    }
    return outcome;
}

} // namespace

TEST_CASE("every kind reserves its threads and buffers from the owner's budget before it starts them", "[budget]")
{
    ScratchDir dir;
    const auto file = make_data_file(dir, "target", 16 * MiB);
    make_owned_directory(dir.path(), "home", caller_uid, caller_gid, 0755);
    // structure makes folders and empty files on the scope's thread: no
    // thread and no buffer of its own (the audit above proves the first).
    const std::set<std::string> reserves_nothing { "structure" };
    std::set<std::string> kinds;
    for (const BenchmarkInfo& info : all_benchmarks()) {
        INFO(info.kind);
        kinds.insert(std::string(info.kind));

        // Room for everything: it runs, and never has a thread running that
        // it did not reserve.
        ResourceBudget room(1024, std::uint64_t { 1 } << 30);
        const Outcome ran = run_kind(info, dir, room);
        REQUIRE(ran.limits_error.empty());
        CHECK(ran.checks > 0);
        CHECK(ran.worst_excess == 0);
        CHECK(room.threads_in_use() == 0); // all given back
        CHECK(room.buffer_bytes_in_use() == 0);

        // Nothing left of the budget (another run of the user holds it):
        // refused before any I/O, with the named error.
        if (info.target() == TargetKind::DeviceWrite)
            make_data_file(dir, "target", 16 * MiB); // the run above overwrote it
        const auto before = checksum(file);
        ResourceBudget taken(1024, std::uint64_t { 1 } << 30);
        {
            const auto other_runs = taken.reserve(1024, std::uint64_t { 1 } << 30);
            const Outcome refused = run_kind(info, dir, taken);
            if (reserves_nothing.count(std::string(info.kind)) != 0) {
                CHECK(refused.limits_error.empty());
                CHECK(ran.most_reserved == 0);
            } else {
                CHECK_THAT(refused.limits_error, Catch::Contains("one user may have"));
                CHECK(refused.checks == 0); // nothing measured, not even progress
            }
        }
        CHECK(taken.threads_in_use() == 0);
        CHECK(checksum(file) == before); // a write kind wrote nothing
    }
    // The registry is what was enumerated: a kind added later is covered.
    CHECK(kinds.size() == all_benchmarks().size());
    CHECK(kinds.count("mixed-load") == 1);
}

TEST_CASE("mixed-load reserves one thread and three chunk buffers per sorting thread", "[budget]")
{
    ScratchDir dir;
    const auto home = make_owned_directory(dir.path(), "home", caller_uid, caller_gid, 0755);
    const BenchmarkInfo* info = find_benchmark("mixed-load");
    REQUIRE(info);
    const ValueMap params { { "threads", std::uint64_t { 8 } }, { "file_size", 2 * MiB } };
    const auto run_with = [&](std::uint64_t threads, std::uint64_t bytes) -> std::string {
        ResourceBudget budget(threads, bytes);
        FilesystemScope scope(open_directory(home), home.string(), test_caller());
        CancelToken cancel;
        try {
            run_directory_benchmark(*info, scope, validate_request(*info, params), nullptr, cancel, &budget);
            return {};
        } catch (const LimitsError& error) {
            return error.what();
        }
    };
    // One thread short, or one byte short of 8 x 3 MiB: refused, naming which.
    CHECK_THAT(run_with(7, 24 * MiB), Catch::Contains("needs 8 I/O threads"));
    CHECK_THAT(run_with(8, 24 * MiB - 1), Catch::Contains("I/O buffers"));
    CHECK(run_with(8, 24 * MiB).empty());
}
