// SPDX-License-Identifier: GPL-3.0-or-later
// Partial points (API 0.5: series "NAME.partial", a surface map's bucket
// while it fills) in the app's sample stream: each replaces the previous
// partial point of its bucket in NAME's list, the final point replaces the
// last partial one, and nothing is ever appended twice for one bucket.
#include "model/benchmark_pages.hpp"
#include "results/job_result.hpp"
#include "bus/sample_stream.hpp"

#include <catch2/catch.hpp>

using namespace diskbench::client;
namespace contract = diskbench::contract;

namespace {

// The surface map's declarations: finals first, then their partial series.
const std::vector<SeriesDeclaration> surface_series = {
    { "mean", "B", "MB/s", "line" },         { "min", "B", "MB/s", "line" },
    { "max", "B", "MB/s", "line" },          { "mean.partial", "B", "MB/s", "line" },
    { "min.partial", "B", "MB/s", "line" },  { "max.partial", "B", "MB/s", "line" },
};

constexpr std::uint32_t mean = 0, mean_partial = 3, max_partial = 5;

std::vector<SeriesPoint> xy(std::initializer_list<std::pair<double, double>> list)
{
    std::vector<SeriesPoint> points;
    for (const auto& [x, y] : list)
        points.push_back({ x, y });
    return points;
}

} // namespace

TEST_CASE("partial points: the series-name rule", "[client-model]")
{
    CHECK(contract::is_partial_series("mean.partial"));
    CHECK(contract::is_partial_series("mean.pass2.partial"));
    CHECK_FALSE(contract::is_partial_series("mean"));
    CHECK_FALSE(contract::is_partial_series(".partial")); // no NAME
    CHECK_FALSE(contract::is_partial_series("partial"));
    CHECK(contract::final_series_name("mean.pass2.partial") == "mean.pass2");
    CHECK(contract::final_series_name("max") == "max");
}

TEST_CASE("partial points replace each other, and the final point replaces them", "[client-model]")
{
    SampleStream stream;
    SampleStream::Points points;
    stream.declare_series(surface_series);
    // Bucket 0 final, then bucket 1 (x = 100) filling: three partial points.
    const std::vector<IndexedSample> first = {
        { mean, 0, 50 }, { mean_partial, 100, 10 }, { max_partial, 100, 12 }, { mean_partial, 100, 20 },
    };
    REQUIRE(stream.on_signal(0, first, points) == SampleStream::Signal::Appended);
    CHECK(points[mean] == xy({ { 0, 50 }, { 100, 20 } })); // the later partial replaced the earlier
    CHECK(points[2] == xy({ { 100, 12 } }));                  // max's partial lands in max
    CHECK(stream.partial_tail(mean));
    CHECK((points.size() <= mean_partial || points[mean_partial].empty())); // nothing of their own

    const std::vector<IndexedSample> second = { { mean_partial, 100, 25 }, { mean, 100, 30 }, { mean_partial, 200, 5 } };
    REQUIRE(stream.on_signal(4, second, points) == SampleStream::Signal::Appended);
    CHECK(points[mean] == xy({ { 0, 50 }, { 100, 30 }, { 200, 5 } }));
    CHECK(stream.partial_tail(mean));

    // The final point of bucket 2 ends it; a final point is never replaced.
    const std::vector<IndexedSample> third = { { mean, 200, 7 }, { mean, 300, 9 } };
    stream.on_signal(7, third, points);
    CHECK(points[mean] == xy({ { 0, 50 }, { 100, 30 }, { 200, 7 }, { 300, 9 } }));
    CHECK_FALSE(stream.partial_tail(mean));
    const std::vector<IndexedSample> same_x_final = { { mean, 300, 11 } };
    stream.on_signal(9, same_x_final, points);
    CHECK(points[mean].size() == 5);
}

TEST_CASE("partial points: a catch-up reply gives the same lists as the signals", "[client-model]")
{
    const std::vector<IndexedSample> all = {
        { mean, 0, 50 },        { mean_partial, 100, 10 }, { mean_partial, 100, 20 },
        { mean, 100, 30 },      { mean_partial, 200, 1 },  { mean_partial, 200, 2 },
    };
    SampleStream signalled;
    SampleStream::Points by_signals;
    signalled.declare_series(surface_series);
    for (std::size_t i = 0; i < all.size(); ++i)
        signalled.on_signal(i, std::span(all).subspan(i, 1), by_signals);

    SampleStream caught_up;
    SampleStream::Points by_reply;
    caught_up.declare_series(surface_series);
    caught_up.begin_catch_up();
    // An overlapping reply: the indices already taken are skipped, not replayed.
    caught_up.on_reply(0, std::span(all).first(4), by_reply);
    caught_up.begin_catch_up();
    caught_up.on_reply(2, std::span(all).subspan(2), by_reply);
    CHECK(by_reply == by_signals);
    CHECK(by_reply[mean] == xy({ { 0, 50 }, { 100, 30 }, { 200, 2 } }));
}

TEST_CASE("partial points: without its final series a partial series keeps its own list", "[client-model]")
{
    SampleStream stream;
    SampleStream::Points points;
    const std::vector<SeriesDeclaration> only_partial = { { "mean.partial", "B", "MB/s", "line" } };
    stream.declare_series(only_partial);
    const std::vector<IndexedSample> samples = { { 0, 100, 1 }, { 0, 100, 2 }, { 0, 200, 3 } };
    stream.on_signal(0, samples, points);
    CHECK(points[0] == xy({ { 100, 2 }, { 200, 3 } }));
}

TEST_CASE("partial points: a saved result holds the final series only", "[client-model]")
{
    JobEntry job;
    job.kind = "surface";
    job.state = "finished";
    job.series = surface_series;
    job.points = { xy({ { 0, 50 } }), xy({ { 0, 40 } }), xy({ { 0, 60 } }), {}, {}, {} };
    const SavedResult saved = saved_result_from_job(job);
    REQUIRE(saved.series.size() == 3);
    CHECK(saved.series[0].name == "mean");
    CHECK(saved.series[0].points == xy({ { 0, 50 } }));
    CHECK(saved.series[2].name == "max");
}

TEST_CASE("partial points: a page draws no line or band of a partial series", "[client-model]")
{
    const BenchmarkPage& surface = *benchmark_page("surface");
    std::vector<std::string> names;
    for (const SeriesDeclaration& s : surface_series)
        names.push_back(s.name);
    const auto routes = route_series(surface.views[0], names);
    REQUIRE(routes.size() == 6);
    CHECK(routes[0].line == std::optional<std::size_t>(0));
    for (std::size_t i = 3; i < 6; ++i) {
        CHECK_FALSE(routes[i].line);
        CHECK_FALSE(routes[i].band_min);
        CHECK_FALSE(routes[i].band_max);
    }
}

TEST_CASE("partial points: a job that ends mid-bucket keeps no partial point, also from a later catch-up",
          "[client-model]")
{
    SampleStream stream;
    SampleStream::Points points;
    stream.declare_series(surface_series);
    // Bucket 0 final, bucket 1 filling when the job is cancelled.
    const std::vector<IndexedSample> batch = { { mean, 0, 50 }, { mean_partial, 100, 20 }, { max_partial, 100, 25 } };
    REQUIRE(stream.on_signal(0, batch, points) == SampleStream::Signal::Appended);
    REQUIRE(points[mean] == xy({ { 0, 50 }, { 100, 20 } }));

    CHECK(stream.end(points));
    CHECK(points[mean] == xy({ { 0, 50 } }));
    CHECK(points[2].empty());
    CHECK_FALSE(stream.partial_tail(mean));
    CHECK_FALSE(stream.end(points)); // nothing left to remove

    // A reply that comes after the end (a catch-up of the same samples plus
    // one more partial point) leaves final points only as well.
    stream.begin_catch_up();
    const std::vector<IndexedSample> late = { { mean_partial, 100, 22 } };
    stream.on_reply(3, late, points);
    CHECK(points[mean] == xy({ { 0, 50 } }));

    // What the app keeps is then what the daemon's result holds.
    JobEntry job;
    job.kind = "surface";
    job.state = "cancelled";
    job.series = surface_series;
    job.points = points;
    const SavedResult saved = saved_result_from_job(job);
    REQUIRE(saved.series.size() == 3);
    CHECK(saved.series[0].points == xy({ { 0, 50 } }));
}
