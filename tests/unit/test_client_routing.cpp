// SPDX-License-Identifier: GPL-3.0-or-later
// Which of a run's series a graph draws where: the write sweeps' median
// with its min-max band, and the drive's temperature on the right-hand axis.
#include "model/benchmark_pages.hpp"
#include "model/temperature_overlay.hpp"

#include "contract/benchmark_kinds.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace diskbench::client;

namespace {

// The series run_write_sweep() declares, in its order.
const std::vector<std::string> sweep_series
    = { "throughput", "throughput-median", "throughput-min", "throughput-max", "repetitions" };

SavedSeries series(std::string name, std::string x_unit, std::string y_unit, std::vector<SeriesPoint> points)
{
    return { std::move(name), std::move(x_unit), std::move(y_unit), "line", std::move(points) };
}

} // namespace

TEST_CASE("both write sweeps draw the median line inside the min-max band", "[client-model]")
{
    namespace kinds = diskbench::contract::kinds;
    for (const auto& [kind, target] : { std::pair { kinds::write_sweep, "directory" },
                                        std::pair { kinds::device_write_sweep, "device-write" } }) {
        INFO(kind);
        const BenchmarkPage page = page_for_kind(std::string(kind), target, "", "");
        REQUIRE_FALSE(page.generic()); // generic would draw the first series: the mean's bars
        REQUIRE(page.views.size() == 1);
        const PageView& view = page.views[0];
        CHECK(view.spec.style == ChartStyle::Line);
        CHECK(view.spec.x_scale == AxisScale::Log2);
        const std::vector<SeriesRoute> routes = route_series(view, sweep_series);
        CHECK_FALSE(routes[0].line); // the mean
        CHECK(routes[1].line == std::optional<std::size_t>(0));
        CHECK(routes[2].band_min == std::optional<std::size_t>(0));
        CHECK_FALSE(routes[2].line);
        CHECK(routes[3].band_max == std::optional<std::size_t>(0));
        CHECK_FALSE(routes[3].line);
        CHECK_FALSE(routes[4].line); // single repetitions
        CHECK_FALSE(routes[4].band_min);

        // Drawn: the median's values, with the extremes as its band.
        const std::vector<SavedSeries> run = {
            series("throughput", "B", "MB/s", { { 4096, 110 } }),
            series("throughput-median", "B", "MB/s", { { 4096, 100 } }),
            series("throughput-min", "B", "MB/s", { { 4096, 20 } }),
            series("throughput-max", "B", "MB/s", { { 4096, 130 } }),
            series("repetitions", "B", "MB/s", { { 4096, 20 }, { 4096, 100 }, { 4096, 130 } }),
        };
        const std::vector<ChartSeries> chart = chart_series_for(view, run, "This run");
        REQUIRE(chart.size() == 1);
        CHECK(chart[0].label == "This run · median");
        REQUIRE(chart[0].points.size() == 1);
        CHECK(chart[0].points[0].y == 100);
        REQUIRE(chart[0].band_min.size() == 1);
        CHECK(chart[0].band_min[0].y == 20);
        REQUIRE(chart[0].band_max.size() == 1);
        CHECK(chart[0].band_max[0].y == 130);
    }
}

TEST_CASE("temperature over time goes on the right-hand axis as it is", "[client-model]")
{
    const PageView view = generic_view({ series("throughput", "s", "MB/s", {}), series("temperature", "s", "°C", {}) });
    // The generic view never draws the temperature as a speed line.
    CHECK(route_series(view, { "throughput", "temperature" })[1].line == std::nullopt);
    const std::vector<SavedSeries> run = {
        series("throughput", "s", "MB/s", { { 0.5, 900 }, { 1, 900 }, { 1.5, 300 } }),
        series("temperature", "s", "°C", { { 0.1, 41 }, { 1.1, 55 } }),
    };
    const auto overlay = temperature_overlay(view, overlay_sources(run));
    REQUIRE(overlay);
    CHECK_FALSE(overlay->label.empty());
    REQUIRE(overlay->points.size() == 2);
    CHECK(overlay->points[1].x == 1.1);
    CHECK(overlay->points[1].y == 55);

    // No sensor, no overlay.
    CHECK_FALSE(temperature_overlay(view, overlay_sources({ run[0] })));
}

TEST_CASE("temperature over a read's position goes where the read was at that time", "[client-model]")
{
    const BenchmarkPage* sequential = benchmark_page("sequential");
    REQUIRE(sequential);
    const PageView& view = sequential->views[0];
    // 100 MB stretches (x: where each starts): 1 s each at 100 MB/s, then 2 s each at 50 MB/s.
    const std::vector<SavedSeries> run = {
        series("throughput", "B", "MB/s", { { 0, 100 }, { 100e6, 100 }, { 200e6, 50 }, { 300e6, 50 } }),
        series("temperature", "s", "°C", { { 0, 40 }, { 1.5, 45 }, { 4, 60 }, { 6.5, 70 } }),
    };
    const auto overlay = temperature_overlay(view, overlay_sources(run));
    REQUIRE(overlay);
    // The reading after the last measured stretch (6.5 s > 6 s) waits.
    REQUIRE(overlay->points.size() == 3);
    CHECK(overlay->points[0].x == Approx(0));      // the first stretch starts at 0
    CHECK(overlay->points[1].x == Approx(150e6));  // half way through the second second
    CHECK(overlay->points[2].x == Approx(300e6));  // 2 s + 2 s at half speed
    CHECK(overlay->points[2].y == 60);

    // Passes read the same places again: a time has no single place.
    const std::vector<SavedSeries> passes = {
        run[0], series("throughput.pass1", "B", "MB/s", run[0].points),
        series("throughput.pass2", "B", "MB/s", run[0].points), run[1],
    };
    CHECK_FALSE(temperature_overlay(view, overlay_sources(passes)));

    // Bar and dot graphs show start -> max as text instead.
    const BenchmarkPage* random = benchmark_page("random");
    REQUIRE(random);
    CHECK_FALSE(temperature_overlay(random->views[0], overlay_sources(run)));
}

TEST_CASE("a line that is not one pass in order gives no positions", "[client-model]")
{
    const std::vector<SeriesPoint> temperature = { { 0.5, 40 } };
    CHECK(temperature_at_positions(temperature, std::vector<SeriesPoint> { { 100, 10 } }).empty());
    CHECK(temperature_at_positions(temperature, std::vector<SeriesPoint> { { 100, 10 }, { 50, 10 } }).empty());
    CHECK(temperature_at_positions(temperature, std::vector<SeriesPoint> { { 100, 10 }, { 200, 0 } }).empty());
    // In order at a measured speed: the reading lands inside the line.
    const auto placed = temperature_at_positions(temperature, std::vector<SeriesPoint> { { 0, 1e-4 }, { 100, 1e-4 } });
    REQUIRE(placed.size() == 1);
    CHECK(placed[0].x == Approx(50)); // 100 B at 100 B/s: half a second in
}
