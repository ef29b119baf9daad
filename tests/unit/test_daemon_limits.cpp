// SPDX-License-Identifier: GPL-3.0-or-later
// The bounds that keep one user from starving the others or getting the
// daemon disconnected: the per-user budget of I/O threads and buffers, and
// the caps on what a job keeps and sends in one message.
#include "../../daemon/engine/benchmark.hpp"
#include "../../daemon/engine/errors.hpp"
#include "../../daemon/engine/resource_budget.hpp"
#include "scratch.hpp"
#include "service/job_sink.hpp"
#include "service/log.hpp"
#include "service/user_limits.hpp"

#include <catch2/catch.hpp>

#include <sdbus-c++/Error.h>

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
        engine::run_benchmark(*profile, target, two_threads, nullptr, cancel, &budget);
        FAIL("the run started");
    } catch (const engine::LimitsError& error) {
        CHECK_THAT(error.what(), Catch::Contains("needs 6 I/O threads"));
    }
    // With the other run gone it fits, and gives everything back.
    other = {};
    const engine::Result result = engine::run_benchmark(*profile, target, two_threads, nullptr, cancel, &budget);
    CHECK(result.backend == "io_uring");
    CHECK(budget.threads_in_use() == 0);
}

TEST_CASE("per-user caps: running jobs and folders being prepared", "[daemon-parts]")
{
    service::LimitCaps caps;
    caps.running_jobs = 2;
    caps.preparations = 1;
    service::UserLimits limits(caps);
    CHECK_NOTHROW(limits.check_start(1000, 1, 0));
    try {
        limits.check_start(1000, 2, 0);
        FAIL("a third job was allowed");
    } catch (const sdbus::Error& error) {
        CHECK(error.getName() == "org.diskbench.DiskBench1.Error.LimitsExceeded");
    }
    CHECK_THROWS_AS(limits.check_start(1000, 0, 1), sdbus::Error);
    // One budget per user while its jobs hold it.
    auto first = limits.budget(1000);
    CHECK(limits.budget(1000) == first);
    CHECK(limits.budget(1001) != first);
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
