// SPDX-License-Identifier: GPL-3.0-or-later
// The bounds that keep one user from starving the others or getting the
// daemon disconnected: the per-user budget of I/O threads and buffers, and
// the caps on what a job keeps and sends in one message.
#include "../../daemon/engine/base/errors.hpp"
#include "../../daemon/engine/benchmark.hpp"
#include "../../daemon/engine/io/resource_budget.hpp"
#include "scratch.hpp"
#include "service/background_disposal.hpp"
#include "service/job_sink.hpp"
#include "service/log.hpp"
#include "service/refused_starts.hpp"
#include "service/user_limits.hpp"

#include <catch2/catch.hpp>

#include <chrono>

#include <sdbus-c++/Error.h>

#include <filesystem>
#include <atomic>
#include <future>
#include <iterator>
#include <thread>

using namespace diskbench;

TEST_CASE("a resource budget refuses what does not fit and takes back what is released", "[daemon-parts]")
{
    engine::ResourceBudget budget(8, 1 << 20);
    {
        auto first = budget.reserve(6, 512 << 10);
        CHECK(budget.threads_in_use() == 6);
        CHECK_THROWS_AS(budget.reserve(3, 1), engine::LimitsError);
        CHECK_THROWS_AS(budget.reserve(1, 600 << 10), engine::LimitsError);
        auto second = budget.reserve(2, 512 << 10); // exactly full
        CHECK(budget.buffer_bytes_in_use() == 1 << 20);
        engine::ResourceBudget::Reservation moved = std::move(second);
        CHECK(budget.threads_in_use() == 8);
    }
    CHECK(budget.threads_in_use() == 0);
    CHECK(budget.buffer_bytes_in_use() == 0);
}

TEST_CASE("a run whose I/O threads do not fit the owner's budget fails with LimitsError", "[daemon-parts]")
{
    testing::ScratchDir dir;
    const auto file = testing::make_data_file(dir, "data", 16 << 20);
    const engine::Target target = engine::open_target_for_read(file.string());
    const engine::BenchmarkInfo* profile = engine::find_benchmark("profile");
    REQUIRE(profile);
    const engine::ValueMap two_threads { { "tests", std::string("RND4K Q1T2") },
                                         { "duration_s", 0.2 },
                                         { "warmup_s", 0.0 },
                                         { "backend", std::string("io_uring") } };
    engine::CancelToken cancel;
    // Two io_uring workers at depth 1 need 6 threads: each its own, and
    // its ring's io-wq one bounded and one unbounded worker (io_wq_bound.hpp).
    // Another run of the same user holds 2 of the 7.
    engine::ResourceBudget budget(7, 1 << 30);
    auto other = budget.reserve(2, 0);
    try {
        engine::run_benchmark(*profile, target, validate_request(*profile, two_threads), nullptr, cancel, &budget);
        FAIL("the run started");
    } catch (const engine::LimitsError& error) {
        CHECK_THAT(error.what(), Catch::Contains("needs 6 I/O threads"));
    }
    // With the other run gone it fits, and gives everything back.
    other = {};
    const engine::Result result = engine::run_benchmark(*profile, target, validate_request(*profile, two_threads), nullptr, cancel, &budget);
    CHECK(result.backend == "io_uring");
    CHECK(budget.threads_in_use() == 0);
}

namespace {

// The LimitsExceeded message `check_start` throws, or "" when it allows the start.
std::string refusal(const service::UserLimits& limits, const service::UserLoad& load)
{
    try {
        limits.check_start(1000, load);
        return {};
    } catch (const sdbus::Error& error) {
        CHECK(error.getName() == "org.diskbench.DiskBench1.Error.LimitsExceeded");
        return error.getMessage();
    }
}

service::UserLoad load_of(std::size_t running, std::size_t preparing, std::vector<std::string> stuck = {})
{
    service::UserLoad load;
    load.running = running;
    load.preparing = preparing;
    load.stuck_total = stuck.size();
    load.stuck = std::move(stuck);
    return load;
}

} // namespace

TEST_CASE("per-user caps: running jobs and folders being prepared", "[daemon-parts]")
{
    service::LimitCaps caps;
    caps.running_jobs = 2;
    caps.preparations = 1;
    service::UserLimits limits(caps);
    CHECK(refusal(limits, load_of(1, 0)).empty());
    CHECK_THAT(refusal(limits, load_of(2, 0)), Catch::Contains("already runs 2 benchmarks"));
    CHECK_FALSE(refusal(limits, load_of(0, 1)).empty());
    // One budget per user while its jobs hold it.
    auto first = limits.budget(1000);
    CHECK(limits.budget(1000) == first);
    CHECK(limits.budget(1001) != first);
}

TEST_CASE("running jobs and folders being prepared count together against the jobs cap", "[daemon-parts]")
{
    // Issue 26, finding 6: 3 running and 4 starts sent together were each
    // checked against "running < 4" while their folders were prepared, and
    // 7 ran. Each preparation takes a place as it starts.
    const service::UserLimits limits; // 4 jobs, 4 preparations
    CHECK(refusal(limits, load_of(3, 0)).empty());
    CHECK_THAT(refusal(limits, load_of(3, 1)), Catch::Contains("already runs 3 benchmarks")
                                                   && Catch::Contains("1 more being started"));
    CHECK_FALSE(refusal(limits, load_of(2, 2)).empty());
    CHECK_FALSE(refusal(limits, load_of(0, 4)).empty());
    CHECK(refusal(limits, load_of(0, 3)).empty());
}

TEST_CASE("a cancelled job whose threads still wait for their I/O counts against its owner", "[daemon-parts]")
{
    // Issue 26, finding 3: such a job has ended on the bus, but its threads
    // are still held; it counts until they return, and names itself.
    const service::UserLimits limits; // 4 jobs, 2 stuck a user, 8 stuck in all
    const std::string stuck = "/org/diskbench/DiskBench1/jobs/7";
    CHECK(refusal(limits, load_of(2, 0, { stuck })).empty());
    const std::string full = refusal(limits, load_of(3, 0, { stuck }));
    CHECK_THAT(full, Catch::Contains("already runs 4 benchmarks") && Catch::Contains(stuck)
                         && Catch::Contains("1 of them cancelled"));
    // Two stuck runs are the most a user may have, whatever else it runs.
    const std::string other = "/org/diskbench/DiskBench1/jobs/9";
    const std::string two = refusal(limits, load_of(0, 0, { stuck, other }));
    CHECK_THAT(two, Catch::Contains(stuck) && Catch::Contains(other) && Catch::Contains("2 cancelled benchmarks"));
    // And the daemon as a whole has at most 8, whoever holds them.
    service::UserLoad everyone = load_of(0, 0);
    everyone.stuck_total = 8;
    CHECK_THAT(refusal(limits, everyone), Catch::Contains("already has 8 cancelled benchmarks"));
    everyone.stuck_total = 7;
    CHECK(refusal(limits, everyone).empty());
}

namespace {

// Something whose destruction blocks until released, as a scratch folder's
// removal on a filesystem that stopped answering. Destroyed on the thread
// that handed it over (the bus thread), it would block that thread: it
// says so instead of waiting, so the test fails rather than hangs.
struct BlockingThing {
    BlockingThing(std::shared_future<void> release, std::atomic<int>& on_caller)
        : release_(std::move(release)), on_caller_(on_caller)
    {
    }
    ~BlockingThing()
    {
        if (std::this_thread::get_id() == caller_) {
            ++on_caller_;
            return;
        }
        release_.wait();
    }
    std::shared_future<void> release_;
    std::atomic<int>& on_caller_;
    const std::thread::id caller_ = std::this_thread::get_id();
};

std::size_t tasks_of_this_process()
{
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator("/proc/self/task"),
                                                  std::filesystem::directory_iterator {}));
}

} // namespace

TEST_CASE("scratch folders still being removed are counted per user and refuse new starts", "[daemon-parts]")
{
    std::promise<void> release;
    const std::shared_future<void> released = release.get_future().share();
    std::atomic<int> on_caller { 0 };
    {
        service::BackgroundDisposal disposal;
        const std::size_t threads_before = tasks_of_this_process();
        disposal.dispose(1000, std::make_unique<BlockingThing>(released, on_caller));
        disposal.dispose(1000, std::make_unique<BlockingThing>(released, on_caller));
        disposal.dispose(1001, std::make_unique<BlockingThing>(released, on_caller));
        disposal.dispose(1001, std::unique_ptr<BlockingThing>()); // nothing to do: no thread
        CHECK(on_caller == 0); // never destroyed on the thread that disposes
        CHECK(disposal.pending(1000) == 2);
        CHECK(disposal.pending(1001) == 1);
        CHECK(disposal.pending() == 3);
        CHECK_FALSE(disposal.empty());
        CHECK(tasks_of_this_process() == threads_before + 3);

        // What the Manager makes of it: the user with two is refused.
        const service::UserLimits limits; // 2 a user, 16 in all
        service::UserLoad load;
        load.disposing = disposal.pending(1000);
        load.disposing_total = disposal.pending();
        CHECK_THAT(refusal(limits, load), Catch::Contains("2 scratch folders whose removal has not finished"));
        load.disposing = disposal.pending(1001);
        CHECK(refusal(limits, load).empty());
        load.disposing_total = 16;
        CHECK_THAT(refusal(limits, load), Catch::Contains("still removing 16 scratch folders"));

        // Once the filesystem answers they finish and stop counting.
        release.set_value();
        while (!disposal.empty())
            std::this_thread::yield();
        CHECK(disposal.pending(1000) == 0);
        // A removal counts as done once its task has returned; its thread
        // leaves the process a moment later. Wait for that (a thread that
        // never left fails at the bound, 10 s, which no exit takes).
        const auto bound = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (tasks_of_this_process() != threads_before && std::chrono::steady_clock::now() < bound)
            std::this_thread::yield();
        CHECK(tasks_of_this_process() == threads_before);
    }
    CHECK(on_caller == 0);
}

TEST_CASE("partial points never crowd out final points", "[daemon-parts]")
{
    service::JobSink sink;
    sink.series_added(0, { "mean", "B", "MB/s", engine::SeriesStyle::Line });
    sink.series_added(1, { "mean.partial", "B", "MB/s", engine::SeriesStyle::Line });
    const std::size_t partial_made = service::JobSink::max_partial_samples + 500;
    for (std::size_t i = 0; i < partial_made; ++i)
        sink.point_added(1, { 0.0, static_cast<double>(i) });
    // Past their own budget partial points are left out, and not reported
    // as lost: a later point of their bucket replaces them anyway.
    CHECK(sink.dropped_samples() == 0);
    sink.point_added(0, { 0.0, 1.0 });
    std::size_t partial = 0, final = 0;
    while (sink.unpublished())
        for (const auto& sample : sink.take_batch().samples)
            (std::get<0>(sample) == 1 ? partial : final) += 1;
    CHECK(partial == service::JobSink::max_partial_samples);
    CHECK(final == 1);
}

TEST_CASE("partial points and series have budgets of their own beside the final ones", "[daemon-parts]")
{
    // A run that fills the final budget exactly (a surface map of many
    // buckets and passes, its median series declared last) loses nothing
    // to the partial points and series it sent before.
    service::JobSink sink;
    std::size_t engine_index = 0;
    for (std::size_t i = 0; i < service::JobSink::max_partial_series + 3; ++i)
        sink.series_added(engine_index++, { "mean.pass" + std::to_string(i) + ".partial", "B", "MB/s",
                                            engine::SeriesStyle::Line });
    for (std::size_t i = 0; i < service::JobSink::max_partial_samples + 10; ++i)
        sink.point_added(0, { 0.0, static_cast<double>(i) });
    // Points of a partial series past the series budget: left out, not lost.
    sink.point_added(service::JobSink::max_partial_series + 1, { 0.0, 1.0 });
    for (std::size_t i = 0; i < service::JobSink::max_series; ++i)
        sink.series_added(engine_index++, { "final" + std::to_string(i), "B", "MB/s", engine::SeriesStyle::Line });
    const std::size_t last_final = engine_index - 1;
    for (std::size_t i = 0; i < service::JobSink::max_samples; ++i)
        sink.point_added(last_final, { static_cast<double>(i), 1.0 });
    CHECK(sink.dropped_series() == 0);
    CHECK(sink.dropped_samples() == 0);
    CHECK(sink.series_count() == service::JobSink::max_partial_series + service::JobSink::max_series);

    // One more final series or point is over the final budget, and says so.
    sink.series_added(engine_index++, { "one-too-many", "B", "MB/s", engine::SeriesStyle::Line });
    sink.point_added(last_final, { 0.0, 1.0 });
    CHECK(sink.dropped_series() == 1);
    CHECK(sink.dropped_samples() == 1);

    std::size_t final = 0;
    while (sink.unpublished())
        for (const auto& sample : sink.take_batch().samples)
            final += std::get<0>(sample) >= service::JobSink::max_partial_series;
    CHECK(final == service::JobSink::max_samples);
}

TEST_CASE("a job keeps a bounded number of samples and no message carries more than the cap", "[daemon-parts]")
{
    service::JobSink sink;
    sink.series_added(0, { "latency", "B", "us", engine::SeriesStyle::Scatter });
    const std::size_t made = service::JobSink::max_samples + 1000;
    for (std::size_t i = 0; i < made; ++i)
        sink.point_added(0, { static_cast<double>(i), 1.0 });
    sink.point_added(7, { 0, 0 }); // a series that does not exist
    CHECK(sink.dropped_samples() == 1001);

    std::uint64_t published = 0;
    std::size_t batches = 0;
    while (sink.unpublished()) {
        const auto batch = sink.take_batch();
        CHECK(batch.first_index == published);
        CHECK(batch.samples.size() <= service::JobSink::max_per_message);
        published += batch.samples.size();
        ++batches;
    }
    CHECK(published == service::JobSink::max_samples);
    CHECK(batches == (service::JobSink::max_samples + service::JobSink::max_per_message - 1)
                         / service::JobSink::max_per_message);

    std::vector<service::Sample> page;
    REQUIRE(sink.published_from(0, 1'000'000'000, page));
    CHECK(page.size() == service::JobSink::max_per_message);
    REQUIRE(sink.published_from(10, 5, page));
    REQUIRE(page.size() == 5);
    CHECK(std::get<1>(page[0]) == 10.0);
    REQUIRE(sink.published_from(published, 5, page));
    CHECK(page.empty());
    CHECK_FALSE(sink.published_from(published + 1, 5, page));
}

TEST_CASE("log lines escape what callers chose, so nobody forges a journal line", "[daemon-parts]")
{
    CHECK(service::escaped("/home/eve/x\nDec 24 sshd[1]: Accepted") == "/home/eve/x\\nDec 24 sshd[1]: Accepted");
    CHECK(service::escaped("tab\there\x1b[31m\\") == "tab\\there\\x1b[31m\\\\");
    CHECK(service::escaped("plain /dev/loop0 ü") == "plain /dev/loop0 ü");
}

TEST_CASE("a series the daemon adds mid-run keeps the engine's points on their own series", "[daemon-parts]")
{
    service::JobSink sink;
    sink.series_added(0, { "throughput", "s", "MB/s", engine::SeriesStyle::Line });
    const auto temperature = sink.add_daemon_series({ "temperature", "s", "°C", engine::SeriesStyle::Line });
    REQUIRE(temperature == std::optional<std::size_t>(1));
    sink.series_added(1, { "iops", "s", "IOPS", engine::SeriesStyle::Line }); // the engine's second
    sink.point_added(1, { 0.5, 900 });
    sink.add_daemon_point(*temperature, { 0.0, 41.0 });
    sink.point_added(0, { 0.5, 120 });
    sink.add_daemon_point(9, { 0, 0 }); // no such series: ignored

    const auto series = sink.series();
    REQUIRE(series.size() == 3);
    CHECK(std::get<0>(series[1]) == "temperature");
    CHECK(std::get<2>(series[1]) == "°C");
    CHECK(std::get<0>(series[2]) == "iops");
    const auto batch = sink.take_batch();
    REQUIRE(batch.samples.size() == 3);
    CHECK(std::get<0>(batch.samples[0]) == 2); // the engine's "iops" (its 1) is our 2
    CHECK(std::get<0>(batch.samples[1]) == 1);
    CHECK(std::get<2>(batch.samples[1]) == 41.0);
    CHECK(std::get<0>(batch.samples[2]) == 0);
}

TEST_CASE("a user's starts refused by polkit are counted, and past the cap refused before anything is read",
          "[daemon-parts]")
{
    using Clock = service::RefusedStarts::Clock;
    service::RefusedStarts refused(3, std::chrono::seconds(2));
    const Clock::time_point start = Clock::now();
    const uid_t flooder = 1001, other = 1002;
    for (int i = 0; i < 3; ++i) {
        CHECK_NOTHROW(refused.check(flooder, start));
        refused.count(flooder, start + std::chrono::milliseconds(i));
    }
    const auto limit_error = [&](uid_t uid, Clock::time_point at) -> std::string {
        try {
            refused.check(uid, at);
        } catch (const sdbus::Error& error) {
            return error.getName() + ": " + error.getMessage();
        }
        return "";
    };
    const std::string refusal = limit_error(flooder, start + std::chrono::milliseconds(10));
    CHECK(refusal.find("org.diskbench.DiskBench1.Error.LimitsExceeded") == 0);
    CHECK(refusal.find("uid 1001 had 3 benchmark starts refused") != std::string::npos);
    CHECK(refusal.find("try again in 2 s") != std::string::npos);
    // Another user is not held to the flooder's count.
    CHECK(limit_error(other, start + std::chrono::milliseconds(10)).empty());
    // The window slides: once the first refusal is 2 s old, one more may try.
    CHECK(!limit_error(flooder, start + std::chrono::milliseconds(1999)).empty());
    CHECK(limit_error(flooder, start + std::chrono::milliseconds(2000)).empty());
    // A long quiet time forgets the user altogether.
    CHECK(limit_error(flooder, start + std::chrono::seconds(60)).empty());
    // The count of one user never grows past the cap, however much is counted.
    for (int i = 0; i < 1000; ++i)
        refused.count(other, start + std::chrono::seconds(61));
    CHECK(!limit_error(other, start + std::chrono::seconds(61)).empty());
    CHECK(limit_error(other, start + std::chrono::seconds(63)).empty());
}
