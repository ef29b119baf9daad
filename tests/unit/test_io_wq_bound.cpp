// SPDX-License-Identifier: GPL-3.0-or-later
// io_uring's kernel workers (io-wq, threads named iou-wrk-N) are bounded
// per ring and counted in the owner's budget. Issue 26, finding 5: profile
// RND4K Q16T64 reserved 64 threads while the daemon had 578, 512 of them
// io-wq workers (the kernel's default, min(entries, 4 x CPUs) a ring).
#include "base/prng.hpp"
#include "io/io_runner.hpp"
#include "io/io_wq_bound.hpp"
#include "io/request_sources.hpp"
#include "io/resource_budget.hpp"
#include "io/target.hpp"
#include "scratch.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

using namespace diskbench::engine;
using namespace diskbench::testing;

namespace {

constexpr std::uint64_t MiB = 1024 * 1024;

struct Threads {
    std::size_t all = 0;
    std::size_t io_wq = 0; // iou-wrk-N
};

Threads threads_now()
{
    Threads threads;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(task.path() / "comm");
        std::string name;
        std::getline(comm, name);
        ++threads.all;
        threads.io_wq += name.rfind("iou-wrk", 0) == 0;
    }
    return threads;
}

// Counts the process's threads every 256 completions (on the I/O threads,
// while every ring is busy), against what the run reserved.
class ThreadWatch final : public CompletionObserver {
public:
    ThreadWatch(const ResourceBudget& budget, std::size_t baseline) : budget_(budget), baseline_(baseline) {}

    void completed(unsigned, const IoCompletion&) override
    {
        const std::lock_guard lock(mutex_);
        if (++completions_ % 256 != 0)
            return;
        const std::uint64_t reserved = budget_.threads_in_use();
        const Threads now = threads_now();
        most_io_wq = std::max(most_io_wq, now.io_wq);
        most_beyond_reserved = std::max<std::int64_t>(
            most_beyond_reserved, static_cast<std::int64_t>(now.all - baseline_) - static_cast<std::int64_t>(reserved));
        most_reserved = std::max(most_reserved, reserved);
        ++checks;
    }

    std::size_t checks = 0;
    std::size_t most_io_wq = 0;
    std::int64_t most_beyond_reserved = -1'000'000;
    std::uint64_t most_reserved = 0;

private:
    const ResourceBudget& budget_;
    const std::size_t baseline_;
    std::mutex mutex_;
    std::uint64_t completions_ = 0;
};

// Sets a block device's queue/nr_requests, and puts the old value back
// (before the loop device is detached: the next test to attach that loop
// device gets the same queue, and left at 4 it punted every read of
// RND4K Q32T1 to io-wq, 0.4 of the IOPS, in a later benchmark).
class ShallowQueue {
public:
    ShallowQueue(const std::string& node, unsigned requests)
        : path_("/sys/block/" + std::filesystem::path(node).filename().string() + "/queue/nr_requests")
    {
        std::ifstream before(path_);
        REQUIRE(before >> old_);
        write(requests);
    }
    ~ShallowQueue() { write(old_); }
    ShallowQueue(const ShallowQueue&) = delete;
    ShallowQueue& operator=(const ShallowQueue&) = delete;

private:
    void write(unsigned requests) const
    {
        std::ofstream queue(path_);
        queue << requests;
        CHECK(queue.flush());
    }
    std::string path_;
    unsigned old_ = 0;
};

} // namespace

TEST_CASE("io_uring's kernel workers stay within the bound the run reserved", "[uring][loop]")
{
    ScratchDir dir;
    const auto backing = make_data_file(dir, "backing", 64 * MiB);
    LoopDevice loop(backing);
    // A queue of 4 requests: the 16 rings' 256 reads in flight do not fit,
    // so the kernel hands the rest to io-wq, as a busy device's full queue
    // does (a loop device's default of 128 did it for RND4K Q16T64).
    const ShallowQueue shallow(loop.path(), 4);
    const Target target = open_target_for_read(loop.path());

    constexpr unsigned rings = 16, depth = 16;
    ResourceBudget budget(1024, std::uint64_t { 1 } << 30);
    const IoRunner runner(BackendPreference::IoUring, &budget);
    // Each worker's own generator: sources run on their workers' threads.
    std::vector<Xoshiro256StarStar> generators;
    for (unsigned i = 0; i < rings; ++i)
        generators.emplace_back(100 + i);
    IoRunSpec spec;
    spec.workers = rings;
    spec.queue_depth = depth;
    spec.max_request_bytes = 4096;
    spec.random = true;
    spec.make_source = [&](unsigned worker) {
        return std::make_unique<RandomSource>(generators[worker], 0, target.size, 4096, 4096, 6000);
    };
    ThreadWatch watch(budget, threads_now().all);
    spec.observer = &watch;
    const IoRunStats stats = runner.run(target, spec);
    CHECK(stats.operations == rings * 6000);

    const std::uint64_t per_ring = detail::threads_per_ring(depth);
    INFO("io-wq workers seen at most: " << watch.most_io_wq << ", threads beyond the reservation at most: "
                                        << watch.most_beyond_reserved << ", NUMA nodes: " << detail::numa_nodes());
    REQUIRE(watch.checks > 10);
    // The reservation is the ring's thread and its io-wq's bound...
    CHECK(watch.most_reserved == rings * per_ring);
    CHECK(per_ring == 1 + (detail::io_wq_bounded_workers + 1) * detail::numa_nodes());
    // ...the kernel did use io-wq here (else this test proves nothing)...
    CHECK(watch.most_io_wq > 0);
    // ...and never had more workers than that bound, nor the process more
    // threads than it had before the run plus what the run reserved.
    CHECK(watch.most_io_wq <= rings * (detail::io_wq_bounded_workers + 1) * detail::numa_nodes());
    CHECK(watch.most_beyond_reserved <= 0);
    CHECK(budget.threads_in_use() == 0);
}
