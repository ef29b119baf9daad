// SPDX-License-Identifier: GPL-3.0-or-later
// The client's charts, judged by their pixels: drawn into Cairo image
// surfaces (no display needed) and read back.
#include "chart/chart.hpp"
#include "chart/chart_handles.hpp"
#include "chart/chart_layout.hpp"

#include <catch2/catch.hpp>

#include <glib.h>
#include <glib/gstdio.h>

#include <algorithm>
#include <array>
#include <clocale>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

using namespace diskbench::client;

namespace {

// An image surface to paint into, `scale` device pixels per logical pixel.
struct Image {
    SurfacePtr surface;
    CairoPtr cr;
    int width, height; // device pixels

    Image(double logical_width, double logical_height, double scale = 1.0)
        : width(static_cast<int>(logical_width * scale)), height(static_cast<int>(logical_height * scale))
    {
        surface.reset(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height));
        cairo_surface_set_device_scale(surface.get(), scale, scale);
        cr.reset(cairo_create(surface.get()));
    }
    [[nodiscard]] std::vector<unsigned char> bytes() const
    {
        cairo_surface_flush(surface.get());
        const unsigned char* data = cairo_image_surface_get_data(surface.get());
        return { data, data + static_cast<std::ptrdiff_t>(cairo_image_surface_get_stride(surface.get())) * height };
    }
    [[nodiscard]] Rgba at(int x, int y) const
    {
        cairo_surface_flush(surface.get());
        const unsigned char* data = cairo_image_surface_get_data(surface.get());
        const auto pixel
            = *reinterpret_cast<const std::uint32_t*>(data + y * cairo_image_surface_get_stride(surface.get()) + x * 4);
        // Opaque pixels (every chart paints its background), so premultiplied = plain.
        return { ((pixel >> 16) & 0xff) / 255.0, ((pixel >> 8) & 0xff) / 255.0, (pixel & 0xff) / 255.0,
                 (pixel >> 24) / 255.0 };
    }
};

// How much of `colour` the pixel shows over `background`: 0 plain
// background, 1 the colour itself, in between where it was blended
// (antialiasing, translucent bands); -1 when the pixel is not a mix of the
// two (another colour, text, grid).
double tint(Rgba pixel, Rgba colour, Rgba background)
{
    const double p[] = { pixel.red, pixel.green, pixel.blue };
    const double c[] = { colour.red, colour.green, colour.blue };
    const double b[] = { background.red, background.green, background.blue };
    double sum = 0;
    int used = 0;
    for (int i = 0; i < 3; ++i)
        if (std::abs(c[i] - b[i]) >= 0.15) {
            sum += (p[i] - b[i]) / (c[i] - b[i]);
            ++used;
        }
    if (used == 0)
        return -1;
    const double t = sum / used;
    // Tight for faint tints, where grey antialiased text would otherwise
    // pass for a trace of the colour; looser for strong ones (8-bit rounding).
    const double tolerance = 0.012 + 0.05 * std::abs(t);
    for (int i = 0; i < 3; ++i)
        if (std::abs(p[i] - (b[i] + t * (c[i] - b[i]))) > tolerance)
            return -1;
    return t;
}

// GError out-parameters are adopted into one of these right after each call.
struct ErrorDeleter {
    void operator()(GError* error) const noexcept { g_error_free(error); }
};
using ErrorPtr = std::unique_ptr<GError, ErrorDeleter>;

bool shows(const Image& image, int x, int y, Rgba colour, Rgba background, double at_least = 0.5)
{
    return tint(image.at(x, y), colour, background) >= at_least;
}

// Whether device pixel (x, y) lies wholly outside `area` (logical = device here).
bool outside(const PlotArea& area, int x, int y)
{
    return x + 1 <= area.left || x >= area.left + area.width || y + 1 <= area.top || y >= area.top + area.height;
}

// Runs of pixels showing `colour` along row y: their [first, last] columns.
std::vector<std::pair<int, int>> runs(const Image& image, int y, Rgba colour, Rgba background, double at_least = 0.9)
{
    std::vector<std::pair<int, int>> found;
    for (int x = 0; x < image.width; ++x) {
        if (!shows(image, x, y, colour, background, at_least))
            continue;
        if (!found.empty() && found.back().second == x - 1)
            found.back().second = x;
        else
            found.push_back({ x, x });
    }
    return found;
}

bool all_background(const Image& image, Rgba background)
{
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const Rgba pixel = image.at(x, y);
            if (std::abs(pixel.red - background.red) + std::abs(pixel.green - background.green)
                    + std::abs(pixel.blue - background.blue)
                > 1e-9)
                return false;
        }
    return true;
}

int count_pixels(const Image& image, int x0, int y0, int x1, int y1, Rgba colour, Rgba background,
                 double at_least = 0.5)
{
    int count = 0;
    for (int y = std::max(0, y0); y < std::min(image.height, y1); ++y)
        for (int x = std::max(0, x0); x < std::min(image.width, x1); ++x)
            count += shows(image, x, y, colour, background, at_least) ? 1 : 0;
    return count;
}

ChartSpec line_spec()
{
    ChartSpec spec;
    spec.style = ChartStyle::Line;
    spec.x_unit = Unit::Bytes;
    spec.y_unit = Unit::MegabytesPerSecond;
    return spec;
}

ChartSeries wave(std::string label, int count, double x_step, double level)
{
    ChartSeries series;
    series.label = std::move(label);
    for (int i = 0; i < count; ++i)
        series.points.push_back({ i * x_step, level + 20 * std::sin(i / 15.0) });
    return series;
}

std::string read_file(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

} // namespace

TEST_CASE("a line chart draws its series inside the plot area and nowhere else", "[client][chart]")
{
    for (const ChartTheme& theme : { ChartTheme::light(), ChartTheme::dark() }) {
        Chart chart(line_spec());
        chart.set_current({ wave("", 300, 1e6, 150) });
        Image image(800, 400);
        chart.paint(image.cr.get(), 800, 400, theme);
        const PlotArea area = chart.last_plot_area();
        REQUIRE(area.width > 600);
        REQUIRE(area.height > 300);
        // The x axis covers the data with round ends; y starts at 0.
        CHECK(area.x_low <= 0);
        CHECK(area.x_high >= 299e6);
        CHECK(area.y_low == 0);
        CHECK(area.y_high >= 170);

        const Rgba colour = theme.current_colour(0);
        int inside = 0;
        int stray = 0;
        for (int y = 0; y < image.height; ++y)
            for (int x = 0; x < image.width; ++x)
                if (shows(image, x, y, colour, theme.background, 0.1))
                    (outside(area, x, y) ? stray : inside) += 1;
        CHECK(inside > 600); // a line across the whole width
        CHECK(stray == 0);
        // The wave is where its values say: around 150 MB/s, not at 0.
        const int x = static_cast<int>(area.to_x(150e6));
        const auto row = [&](double value) { return static_cast<int>(area.to_y(value)); };
        CHECK(count_pixels(image, x - 1, row(175), x + 2, row(125), colour, theme.background) > 0);
        CHECK(count_pixels(image, x - 1, row(60), x + 2, row(0), colour, theme.background) == 0);
    }
}

TEST_CASE("a fixed x domain cuts lines and bands at the plot's edges", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec = line_spec();
    spec.x_low = 50e6; // the data runs from 0 to 299e6
    spec.x_high = 250e6;
    Chart chart(spec);
    ChartSeries banded = wave("", 300, 1e6, 150);
    for (const SeriesPoint& point : banded.points) {
        banded.band_min.push_back({ point.x, point.y - 60 });
        banded.band_max.push_back({ point.x, point.y + 40 });
    }
    chart.set_current({ banded });
    Image image(800, 400);
    chart.paint(image.cr.get(), 800, 400, theme);
    const PlotArea area = chart.last_plot_area();
    CHECK(area.x_low == 50e6);
    CHECK(area.x_high == 250e6);
    int band = 0;
    int stray = 0;
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const double t = tint(image.at(x, y), theme.current_colour(0), theme.background);
            if (t >= 0.05 && outside(area, x, y))
                ++stray;
            else if (t >= 0.05 && t < 0.4)
                ++band;
        }
    CHECK(stray == 0);
    CHECK(band > 10'000); // translucent, 100 MB/s tall, across the plot
    // The band spans 79..179 MB/s around the wave, at 139 MB/s here.
    const int x = static_cast<int>(area.to_x(150e6));
    CHECK(tint(image.at(x, static_cast<int>(area.to_y(110))), theme.current_colour(0), theme.background)
          == Approx(0.2).margin(0.05));
    CHECK(tint(image.at(x, static_cast<int>(area.to_y(170))), theme.current_colour(0), theme.background)
          == Approx(0.2).margin(0.05));
    CHECK(tint(image.at(x, static_cast<int>(area.to_y(60))), theme.current_colour(0), theme.background)
          == Approx(0).margin(0.02));
}

TEST_CASE("a bar chart draws one bar per x, the reference beside it and the running bar", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec;
    spec.style = ChartStyle::Bar;
    spec.x_scale = AxisScale::Log2;
    spec.x_unit = Unit::Bytes;
    spec.y_unit = Unit::MegabytesPerSecond;
    Chart chart(spec);
    ChartSeries current { "", {}, {}, {} };
    ChartSeries reference { "", {}, {}, {} };
    for (int i = 0; i < 5; ++i) {
        current.points.push_back({ 4096.0 * (1 << i), 100.0 + 40 * i });
        reference.points.push_back({ 4096.0 * (1 << i), 90.0 + 35 * i });
    }
    chart.set_current({ current });
    Image image(900, 400);
    chart.paint(image.cr.get(), 900, 400, theme);
    PlotArea area = chart.last_plot_area();
    // Log2 axis: the area's x is log2 of the block size.
    CHECK(area.x_low < 12);
    CHECK(area.x_high > 16);
    const int low_row = static_cast<int>(area.to_y(50));
    const auto alone = runs(image, low_row, theme.current_colour(0), theme.background);
    REQUIRE(alone.size() == 5);
    for (std::size_t i = 0; i < alone.size(); ++i) {
        // Each bar is centred on its block size ...
        const double centre = area.to_x(12.0 + static_cast<double>(i));
        CHECK(std::abs((alone[i].first + alone[i].second) / 2.0 - centre) <= 2);
        CHECK(alone[i].second - alone[i].first >= 20);
    }
    // ... and as tall as its value: the 100 MB/s bar ends below 120 MB/s.
    const int first_centre = (alone[0].first + alone[0].second) / 2;
    CHECK(!shows(image, first_centre, static_cast<int>(area.to_y(110)), theme.current_colour(0), theme.background));

    // Empty current series (labelled or reserved ahead of their data) take
    // no place: still one solid bar per x.
    chart.set_current_label(2, "later");
    chart.reserve_points(3, 100);
    chart.paint(image.cr.get(), 900, 400, theme);
    CHECK(runs(image, low_row, theme.current_colour(0), theme.background) == alone);
    chart.set_current({ current });

    chart.set_reference({ reference });
    chart.paint(image.cr.get(), 900, 400, theme);
    area = chart.last_plot_area();
    const auto current_runs = runs(image, static_cast<int>(area.to_y(50)), theme.current_colour(0), theme.background);
    const auto reference_runs = runs(image, static_cast<int>(area.to_y(50)), theme.reference, theme.background);
    REQUIRE(current_runs.size() == 5);
    REQUIRE(reference_runs.size() == 5);
    for (std::size_t i = 0; i < 5; ++i) {
        // Side by side: the reference right after the current bar, barely apart.
        CHECK(reference_runs[i].first > current_runs[i].second);
        CHECK(reference_runs[i].first - current_runs[i].second <= 2);
        CHECK(reference_runs[i].second - reference_runs[i].first >= 10);
    }

    // The running bar (128 KiB, half done): an outline up to the plot's top,
    // translucent inside up to half the height, empty above.
    chart.set_running_bar(131072, 0.5);
    chart.paint(image.cr.get(), 900, 400, theme);
    area = chart.last_plot_area();
    // In the current bar's place: the left half of the 128 KiB group.
    const double running_centre = area.to_x(17);
    const double slot = area.width / (area.x_high - area.x_low);
    const int top_row = static_cast<int>(area.top) + 3; // above every bar
    const auto outline = runs(image, top_row, theme.current_colour(0), theme.background, 0.6);
    REQUIRE(outline.size() == 2); // its left and right edge
    CHECK(outline[0].first >= running_centre - 0.45 * slot);
    CHECK(outline[0].first < running_centre - 0.3 * slot);
    CHECK(outline[1].second <= running_centre);
    CHECK(outline[1].first - outline[0].second > 10);
    const int inside_x = static_cast<int>((outline[0].second + outline[1].first) / 2);
    const double low_fill = tint(image.at(inside_x, static_cast<int>(area.top + area.height * 0.75)),
                                 theme.current_colour(0), theme.background);
    CHECK(low_fill > 0.2);
    CHECK(low_fill < 0.6);
    CHECK(tint(image.at(inside_x, static_cast<int>(area.top + area.height * 0.25)), theme.current_colour(0),
               theme.background)
          == Approx(0).margin(0.02));
    // The completed bars are still all there (and the outline's edges).
    const auto with_running = runs(image, static_cast<int>(area.to_y(50)), theme.current_colour(0), theme.background);
    CHECK(std::count_if(with_running.begin(), with_running.end(), [&](const auto& run) {
              return run.second < outline[0].first - 2;
          }) == 5);

    chart.set_running_bar(std::nullopt, 0);
    chart.paint(image.cr.get(), 900, 400, theme);
    CHECK(runs(image, top_row, theme.current_colour(0), theme.background, 0.6).empty());
}

TEST_CASE("profile tests are bars on a category axis", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::dark();
    ChartSpec spec;
    spec.style = ChartStyle::Bar;
    spec.x_scale = AxisScale::Categories;
    spec.y_unit = Unit::MegabytesPerSecond;
    spec.categories = { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1" };
    Chart chart(spec);
    chart.set_current({ { "", { { 0, 550 }, { 1, 520 }, { 2, 300 }, { 3, 45 } }, {}, {} } });
    Image image(700, 300);
    chart.paint(image.cr.get(), 700, 300, theme);
    const PlotArea area = chart.last_plot_area();
    CHECK(area.x_low == -0.5);
    CHECK(area.x_high == 3.5);
    CHECK(runs(image, static_cast<int>(area.to_y(20)), theme.current_colour(0), theme.background).size() == 4);
    CHECK(runs(image, static_cast<int>(area.to_y(400)), theme.current_colour(0), theme.background).size() == 2);
}

TEST_CASE("a scatter chart puts a dot where each point is", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec;
    spec.style = ChartStyle::Scatter;
    spec.x_unit = Unit::Bytes;
    spec.y_unit = Unit::Microseconds;
    Chart chart(spec);
    ChartSeries seeks { "", {}, {}, {} };
    // Thousands of seeks in the lower left, one far out on its own.
    for (int i = 0; i < 5000; ++i)
        seeks.points.push_back({ (i % 100) * 1e9, 100.0 + (i % 37) * 2 });
    seeks.points.push_back({ 400e9, 8000 });
    chart.set_current({ seeks });
    Image image(800, 500);
    chart.paint(image.cr.get(), 800, 500, theme);
    const PlotArea area = chart.last_plot_area();
    const int x = static_cast<int>(area.to_x(400e9));
    const int y = static_cast<int>(area.to_y(8000));
    const Rgba colour = theme.current_colour(0);
    CHECK(shows(image, x, y, colour, theme.background, 0.9));
    // A small dot: nothing a few pixels away, nor where no point lies.
    CHECK(count_pixels(image, x - 8, y - 8, x + 9, y + 9, colour, theme.background) <= 16);
    CHECK(!shows(image, x + 6, y, colour, theme.background, 0.2));
    CHECK(count_pixels(image, static_cast<int>(area.to_x(200e9)), static_cast<int>(area.to_y(6000)),
                       static_cast<int>(area.to_x(300e9)), static_cast<int>(area.to_y(1000)), colour, theme.background,
                       0.2)
          == 0);
    // Dots on the plot's edge (the crowd starts at x = 0) are cut at it.
    int stray = 0;
    for (int py = 0; py < image.height; ++py)
        for (int px = 0; px < image.width; ++px)
            stray += outside(area, px, py) && shows(image, px, py, colour, theme.background, 0.05) ? 1 : 0;
    CHECK(stray == 0);
    // The crowd at 100..172 µs is drawn too.
    CHECK(count_pixels(image, static_cast<int>(area.left), static_cast<int>(area.to_y(180)),
                       static_cast<int>(area.to_x(100e9)), static_cast<int>(area.to_y(90)), colour, theme.background)
          > 500);
}

TEST_CASE("a band of more points than pixels keeps its extremes", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    Chart chart(line_spec());
    ChartSeries series { "", {}, {}, {} };
    for (int i = 0; i < 50'000; ++i) {
        const double x = i * 1e6;
        series.points.push_back({ x, 300 });
        // One slow read and one fast one among 50 000 buckets.
        series.band_min.push_back({ x, i == 31'234 ? 40.0 : 280.0 });
        series.band_max.push_back({ x, i == 12'345 ? 480.0 : 320.0 });
    }
    chart.set_current({ series });
    Image image(800, 400);
    chart.paint(image.cr.get(), 800, 400, theme);
    const PlotArea area = chart.last_plot_area();
    const Rgba colour = theme.current_colour(0);
    auto band_at = [&](double x, double y) {
        double most = 0;
        for (int px = static_cast<int>(area.to_x(x)) - 1; px <= static_cast<int>(area.to_x(x)) + 1; ++px)
            most = std::max(most, tint(image.at(px, static_cast<int>(area.to_y(y))), colour, theme.background));
        return most;
    };
    CHECK(band_at(31'234e6, 60) > 0.1);  // down to the slow read
    CHECK(band_at(12'345e6, 460) > 0.1); // up to the fast one
    CHECK(band_at(20'000e6, 60) == Approx(0).margin(0.02));
    CHECK(band_at(20'000e6, 460) == Approx(0).margin(0.02));
    CHECK(band_at(20'000e6, 290) > 0.1);
}

TEST_CASE("cached and uncached drawing agree to the pixel, also after appends and resizes", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec = line_spec();
    spec.x_low = 0;
    spec.x_high = 300'000 * 4096.0; // the surface map's fixed domain
    Chart chart(spec);
    // Several series, one with a band, so every kind of line goes through both paths.
    ChartSeries banded = wave("band", 40, 30'000 * 4096.0, 60);
    for (const SeriesPoint& point : banded.points) {
        banded.band_min.push_back({ point.x, point.y - 15 });
        banded.band_max.push_back({ point.x, point.y + 25 });
    }
    chart.set_reference({ wave("Samsung SSD 860, 2026-11-01", 150'000, 8192, 120), banded });
    chart.set_current_label(0, "now");

    auto same_pictures = [&](double width, double height, double scale) {
        Image cached(width, height, scale);
        Image uncached(width, height, scale);
        chart.paint(cached.cr.get(), width, height, theme, scale);
        chart.paint_uncached(uncached.cr.get(), width, height, theme);
        const auto a = cached.bytes();
        const auto b = uncached.bytes();
        REQUIRE(a.size() == b.size());
        std::size_t differing = 0;
        for (std::size_t i = 0; i < a.size(); ++i)
            differing += a[i] != b[i] ? 1 : 0;
        return differing;
    };

    // Appended in uneven chunks, so chunk ends fall inside pixel columns.
    std::vector<SeriesPoint> points;
    for (int i = 0; i < 300'000; ++i)
        points.push_back({ i * 4096.0, 200 + 60 * std::sin(i / 9000.0) - (i % 4999 == 0 ? 150 : 0) });
    std::size_t next = 0;
    auto append = [&](std::size_t count) {
        chart.append_points(0, std::span(points).subspan(next, count));
        next += count;
    };
    append(100'003);
    CHECK(same_pictures(900, 400, 1) == 0);
    const ChartCacheStats first = chart.cache_stats();
    CHECK(first.layer_builds == 1);
    CHECK(first.envelope_rebuilds == 2); // current and reference

    // Redrawn unchanged: everything kept.
    CHECK(same_pictures(900, 400, 1) == 0);
    CHECK(chart.cache_stats().layer_builds == 1);
    CHECK(chart.cache_stats().envelope_rebuilds == 2);
    CHECK(chart.cache_stats().envelope_updates == 0);

    for (std::size_t chunk : { 777u, 5'000u, 31u, 40'001u, 1u }) {
        append(chunk);
        INFO("after appending " << chunk << " points, " << next << " in all");
        CHECK(same_pictures(900, 400, 1) == 0);
    }
    // Appends only touched the last columns; the values stayed under the
    // same round maximum, so the layer was kept too.
    CHECK(chart.cache_stats().envelope_rebuilds == 2);
    CHECK(chart.cache_stats().envelope_updates == 5);
    CHECK(chart.cache_stats().layer_builds == 1);

    // A value above the axis: new y ticks, new layer.
    const double old_top = chart.last_plot_area().y_high;
    const std::vector<SeriesPoint> spike { { points[next - 1].x + 1, 900 } };
    chart.append_points(0, spike);
    CHECK(same_pictures(900, 400, 1) == 0);
    CHECK(chart.last_plot_area().y_high > old_top);
    CHECK(chart.cache_stats().layer_builds == 2);

    // Another size, HiDPI, another series: all from scratch and still equal.
    const std::size_t rebuilds = chart.cache_stats().envelope_rebuilds;
    CHECK(same_pictures(1000, 450, 1) == 0);
    CHECK(chart.cache_stats().envelope_rebuilds == rebuilds + 2);
    CHECK(same_pictures(640, 300, 2) == 0);
    chart.append_points(1, std::span(points).subspan(0, 2000)); // short: a plain line
    chart.set_current_label(1, "1 thread");
    CHECK(same_pictures(640, 300, 1) == 0);

    // Replacing the data starts over (a stale envelope would show the old one).
    chart.set_current({ wave("new", 200'000, 4096, 80) });
    CHECK(same_pictures(640, 300, 1) == 0);
    chart.clear_reference();
    CHECK(same_pictures(640, 300, 1) == 0);
}

TEST_CASE("bar and scatter charts draw the same cached and uncached", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::dark();
    for (ChartStyle style : { ChartStyle::Bar, ChartStyle::Scatter }) {
        ChartSpec spec;
        spec.style = style;
        spec.x_scale = AxisScale::Log2;
        spec.x_unit = Unit::Bytes;
        spec.y_unit = Unit::Iops;
        Chart chart(spec);
        chart.set_current({ { "now", { { 512, 9000 }, { 1024, 12000 }, { 4096, 30000 } }, {}, {} } });
        chart.set_reference({ { "before", { { 512, 8000 }, { 1024, 11000 } }, {}, {} } });
        chart.set_running_bar(8192, 0.3);
        for (int pass = 0; pass < 2; ++pass) {
            Image cached(500, 300);
            Image uncached(500, 300);
            chart.paint(cached.cr.get(), 500, 300, theme);
            chart.paint_uncached(uncached.cr.get(), 500, 300, theme);
            CHECK(cached.bytes() == uncached.bytes());
            chart.append_points(0, std::vector<SeriesPoint> { { 16384, 41000 } });
        }
    }
}

TEST_CASE("axes have labels, the legend names current and reference", "[client][chart]")
{
    std::setlocale(LC_ALL, "C");
    const ChartTheme theme = ChartTheme::light();
    Chart chart(line_spec());
    chart.set_current({ wave("", 100, 1e6, 150) });
    Image plain(800, 400);
    chart.paint(plain.cr.get(), 800, 400, theme);
    PlotArea area = chart.last_plot_area();
    // Text left of the plot (the y labels) and under it (the x labels).
    CHECK(count_pixels(plain, 0, static_cast<int>(area.top) - 8, static_cast<int>(area.left) - 3,
                       static_cast<int>(area.top + area.height) + 8, theme.foreground, theme.background, 0.6)
          > 30);
    CHECK(count_pixels(plain, static_cast<int>(area.left), static_cast<int>(area.top + area.height) + 3, plain.width,
                       plain.height, theme.foreground, theme.background, 0.6)
          > 30);
    // No labels, no reference: no legend above the plot.
    CHECK(count_pixels(plain, 0, 0, plain.width, static_cast<int>(area.top), theme.current_colour(0), theme.background)
          == 0);
    CHECK(count_pixels(plain, 0, 0, plain.width, static_cast<int>(area.top), theme.reference, theme.background) == 0);

    chart.set_current_label(0, "Samsung SSD 860");
    chart.set_reference({ wave("", 100, 1e6, 100) });
    Image legend(800, 400);
    chart.paint(legend.cr.get(), 800, 400, theme);
    area = chart.last_plot_area();
    const int above = static_cast<int>(area.top);
    // A swatch of each colour and text beside them, above the plot.
    CHECK(count_pixels(legend, 0, 0, legend.width, above, theme.current_colour(0), theme.background, 0.9) >= 49);
    CHECK(count_pixels(legend, 0, 0, legend.width, above, theme.reference, theme.background, 0.9) >= 49);
    CHECK(count_pixels(legend, 0, 0, legend.width, above, theme.foreground, theme.background, 0.6) > 40);

    // The axes' labels themselves: round values with units.
    const ChartText text(legend.cr.get(), theme.font_size);
    LayoutInput input;
    input.spec = line_spec();
    input.extent.add(SeriesPoint { 0, 0 });
    input.extent.add(SeriesPoint { 3.9 * 1024 * 1024 * 1024, 487 });
    input.has_content = true;
    input.width = 800;
    input.height = 400;
    const ChartFrame frame = layout_chart(input, [&](std::string_view label) { return text.measure(label); });
    std::vector<std::string> y_texts;
    for (const AxisLabel& label : frame.y_labels)
        y_texts.push_back(label.text);
    CHECK(y_texts.front() == "0 MB/s");
    CHECK(std::find(y_texts.begin(), y_texts.end(), "500 MB/s") != y_texts.end());
    CHECK(frame.x_labels.front().text == "0 B");
    CHECK(std::any_of(frame.x_labels.begin(), frame.x_labels.end(),
                      [](const AxisLabel& label) { return label.text == "2 GiB"; }));
}

TEST_CASE("axis labels never overlap, however narrow the chart", "[client][chart]")
{
    Image image(10, 10);
    const ChartText text(image.cr.get(), 11);
    for (double width : { 120.0, 200.0, 333.0, 640.0, 1500.0 })
        for (AxisScale scale : { AxisScale::Linear, AxisScale::Log2, AxisScale::Categories }) {
            LayoutInput input;
            input.spec.style = scale == AxisScale::Linear ? ChartStyle::Line : ChartStyle::Bar;
            input.spec.x_scale = scale;
            input.spec.x_unit = Unit::Bytes;
            input.spec.categories = { "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1", "RND4K Q8T8" };
            input.extent.add(SeriesPoint { scale == AxisScale::Categories ? 0 : 512.0, 0 });
            input.extent.add(SeriesPoint { scale == AxisScale::Categories ? 4 : 64.0 * 1024 * 1024, 1234 });
            input.has_content = true;
            input.width = width;
            input.height = 300;
            const ChartFrame frame = layout_chart(input, [&](std::string_view label) { return text.measure(label); });
            INFO("width " << width << " scale " << static_cast<int>(scale));
            REQUIRE(frame.axes);
            CHECK(!frame.x_labels.empty());
            for (std::size_t i = 1; i < frame.x_labels.size(); ++i)
                CHECK(frame.x_labels[i].x >= frame.x_labels[i - 1].x + text.measure(frame.x_labels[i - 1].text).width);
            for (const AxisLabel& label : frame.x_labels)
                CHECK((label.x >= 0 && label.x + text.measure(label.text).width <= width));
        }
}

TEST_CASE("QD curves: one colour per thread count, with a legend", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec;
    spec.style = ChartStyle::Line;
    spec.x_scale = AxisScale::Log2;
    spec.x_unit = Unit::QueueDepth;
    spec.y_unit = Unit::Iops;
    Chart chart(spec);
    std::vector<ChartSeries> curves;
    for (int threads : { 1, 2, 4 }) {
        ChartSeries curve { std::to_string(threads) + (threads == 1 ? " thread" : " threads"), {}, {}, {} };
        for (int qd = 1; qd <= 128; qd *= 2)
            curve.points.push_back({ static_cast<double>(qd), threads * 10000.0 * std::log2(2.0 * qd) });
        curves.push_back(curve);
    }
    chart.set_current(curves);
    Image image(800, 400);
    chart.paint(image.cr.get(), 800, 400, theme);
    const PlotArea area = chart.last_plot_area();
    CHECK(area.x_low == -0.5);
    CHECK(area.x_high == 7.5);
    for (std::size_t i = 0; i < 3; ++i) {
        INFO("curve " << i);
        const Rgba colour = theme.current_colour(i);
        // Its legend swatch above the plot, and its marker at QD 8.
        CHECK(count_pixels(image, 0, 0, image.width, static_cast<int>(area.top), colour, theme.background, 0.9) >= 49);
        const int x = static_cast<int>(area.to_x(3));
        const int y = static_cast<int>(area.to_y(curves[i].points[3].y));
        CHECK(count_pixels(image, x - 3, y - 3, x + 4, y + 4, colour, theme.background, 0.9) >= 9);
    }
}

TEST_CASE("QD curves past the palette: the colours come round dotted, their swatches hollow", "[client][chart]")
{
    // The QD sweep's 7 thread counts against 4 colours: curve 4 has curve
    // 0's colour, but a dotted line and a hollow legend swatch.
    const ChartTheme theme = ChartTheme::light();
    REQUIRE(theme.current.size() == 4);
    ChartSpec spec;
    spec.style = ChartStyle::Line;
    spec.x_scale = AxisScale::Log2;
    spec.x_unit = Unit::QueueDepth;
    spec.y_unit = Unit::Iops;
    const auto flat = [](const std::string& name, double y) {
        ChartSeries curve { name, {}, {}, {} };
        for (int qd = 1; qd <= 128; qd *= 2)
            curve.points.push_back({ static_cast<double>(qd), y });
        return curve;
    };
    std::vector<ChartSeries> curves;
    for (int i = 0; i < 4; ++i)
        curves.push_back(flat("curve " + std::to_string(i), 10000.0 * (i + 1)));
    const auto legend_pixels = [&](const std::vector<ChartSeries>& shown, PlotArea& area) {
        Chart chart(spec);
        chart.set_current(shown);
        Image image(800, 400);
        chart.paint(image.cr.get(), 800, 400, theme);
        area = chart.last_plot_area();
        return std::make_pair(count_pixels(image, 0, 0, image.width, static_cast<int>(area.top), theme.current_colour(0),
                                           theme.background, 0.9),
                              std::move(image));
    };
    PlotArea area;
    const auto [four, four_image] = legend_pixels(curves, area);
    curves.push_back(flat("curve 4", 25000.0)); // between curves 1 and 2, off the plot's edge
    CHECK(theme.current_colour(4).red == theme.current_colour(0).red);
    CHECK(theme.current_colour(4).blue == theme.current_colour(0).blue);
    CHECK(theme.second_round(4));
    CHECK_FALSE(theme.second_round(3));
    auto [five, image] = legend_pixels(curves, area);
    // The hollow swatch adds its frame, not a whole square's worth.
    CHECK(five > four);
    CHECK(five - four < four * 3 / 4);
    // Between the markers at QD 1 and QD 8 a solid line covers every
    // column; the dotted one about 4 of every 7.
    const auto covered = [&](double y_value) {
        const int y = static_cast<int>(area.to_y(y_value));
        int columns = 0, inked = 0;
        for (int x = static_cast<int>(area.to_x(1)) + 6; x < static_cast<int>(area.to_x(3)) - 6; ++x, ++columns)
            if (count_pixels(image, x, y - 1, x + 1, y + 2, theme.current_colour(0), theme.background, 0.4) > 0)
                ++inked;
        return static_cast<double>(inked) / columns;
    };
    CHECK(covered(10000.0) > 0.95);
    const double dotted = covered(25000.0);
    CHECK(dotted > 0.35);
    CHECK(dotted < 0.8);
}

TEST_CASE("an empty chart shows its placeholder, nothing else", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    Chart chart(line_spec());
    CHECK(!chart.has_data());
    Image blank(400, 200);
    chart.paint(blank.cr.get(), 400, 200, theme);
    CHECK(all_background(blank, theme.background));

    chart.set_placeholder("No results yet");
    Image image(400, 200);
    chart.paint(image.cr.get(), 400, 200, theme);
    CHECK(count_pixels(image, 100, 80, 300, 120, theme.foreground, theme.background, 0.3) > 40);
    CHECK(count_pixels(image, 0, 0, 400, 60, theme.foreground, theme.background, 0.05) == 0);

    chart.reserve_points(0, 1000);
    chart.set_current_label(1, "1 thread");
    CHECK(!chart.has_data());
    chart.append_points(0, std::vector<SeriesPoint> { { 0, 1 }, { 1, 2 } });
    CHECK(chart.has_data());
    chart.clear_current();
    CHECK(!chart.has_data());
}

TEST_CASE("export writes PNG, SVG and PDF files, or says why not", "[client][chart]")
{
    std::setlocale(LC_ALL, "C");
    CHECK(export_format_for("a.png") == ExportFormat::Png);
    CHECK(export_format_for("/tmp/A.PNG") == ExportFormat::Png);
    CHECK(export_format_for("graph.Svg") == ExportFormat::Svg);
    CHECK(export_format_for("x.pdf") == ExportFormat::Pdf);
    CHECK(!export_format_for("x.jpg"));
    CHECK(!export_format_for("png"));
    CHECK(!export_format_for("dir.png/graph"));

    GError* error = nullptr;
    const GCharPtr dir(g_dir_make_tmp("diskbench-chart-XXXXXX", &error));
    const ErrorPtr dir_error(error);
    error = nullptr;
    REQUIRE(dir);
    const std::string base = dir.get();
    Chart chart(line_spec());
    chart.set_current({ wave("now", 2000, 1e6, 150) });
    chart.set_reference({ wave("", 2000, 1e6, 120) });
    const ChartTheme theme = ChartTheme::light();

    const std::string png = base + "/graph.png";
    const std::string title = "Sequential read — Samsung SSD 860 (Проверка)";
    CHECK(export_chart(chart, png, ExportFormat::Png, title, 600, 300, theme) == "");
    const std::string png_bytes = read_file(png);
    REQUIRE(png_bytes.size() > 8);
    CHECK(png_bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    const SurfacePtr loaded(cairo_image_surface_create_from_png(png.c_str()));
    REQUIRE(cairo_surface_status(loaded.get()) == CAIRO_STATUS_SUCCESS);
    CHECK(cairo_image_surface_get_width(loaded.get()) == 1200);
    CHECK(cairo_image_surface_get_height(loaded.get()) == 600);

    // The title takes the top of the picture: dark text in its middle,
    // where without a title there is only background (and a grid line).
    Chart unlabelled(line_spec());
    unlabelled.set_current({ wave("", 2000, 1e6, 150) });
    const std::string titled = base + "/titled.png";
    const std::string untitled = base + "/untitled.png";
    CHECK(export_chart(unlabelled, titled, ExportFormat::Png, title, 600, 300, theme) == "");
    CHECK(export_chart(unlabelled, untitled, ExportFormat::Png, "", 600, 300, theme) == "");
    auto title_ink = [&](const std::string& path) {
        const SurfacePtr surface(cairo_image_surface_create_from_png(path.c_str()));
        cairo_surface_flush(surface.get());
        const unsigned char* data = cairo_image_surface_get_data(surface.get());
        const int stride = cairo_image_surface_get_stride(surface.get());
        int ink = 0;
        for (int y = 0; y < 40; ++y) // the top 20 logical pixels, middle third
            for (int x = 400; x < 800; ++x)
                ink += data[y * stride + x * 4] < 128 ? 1 : 0; // blue channel: dark text
        return ink;
    };
    CHECK(title_ink(titled) > 50);
    CHECK(title_ink(untitled) == 0);

    const std::string svg = base + "/graph.svg";
    CHECK(export_chart(chart, svg, ExportFormat::Svg, "Sequential read", 600, 300, theme) == "");
    std::string svg_text = read_file(svg);
    CHECK(svg_text.rfind("<?xml", 0) == 0);
    CHECK(svg_text.find("<svg") != std::string::npos);
    while (!svg_text.empty() && std::isspace(static_cast<unsigned char>(svg_text.back())))
        svg_text.pop_back();
    CHECK(svg_text.size() > 1000);
    CHECK(svg_text.ends_with("</svg>"));
    // Well-formed XML, as GMarkup reads it.
    const GMarkupParser parser {};
    const std::unique_ptr<GMarkupParseContext, decltype(&g_markup_parse_context_free)> context(
        g_markup_parse_context_new(&parser, GMarkupParseFlags {}, nullptr, nullptr), &g_markup_parse_context_free);
    const auto length = static_cast<gssize>(svg_text.size());
    const gboolean parsed = g_markup_parse_context_parse(context.get(), svg_text.data(), length, &error)
        && g_markup_parse_context_end_parse(context.get(), &error);
    const ErrorPtr parse_error(error);
    error = nullptr;
    INFO((parse_error ? parse_error->message : ""));
    CHECK(parsed);

    const std::string pdf = base + "/graph.PDF";
    CHECK(export_chart(chart, pdf, ExportFormat::Pdf, "Sequential read", 600, 300, theme) == "");
    const std::string pdf_bytes = read_file(pdf);
    CHECK(pdf_bytes.rfind("%PDF-", 0) == 0);
    CHECK(pdf_bytes.find("%%EOF") != std::string::npos);

    // A folder that does not exist: a message naming the file, and no file.
    for (ExportFormat format : { ExportFormat::Png, ExportFormat::Svg, ExportFormat::Pdf }) {
        const std::string nowhere = base + "/missing/graph.out";
        const std::string message = export_chart(chart, nowhere, format, "", 600, 300, theme);
        CHECK_THAT(message, Catch::Contains("graph.out") && Catch::Contains("No such file or directory"));
        CHECK(!g_file_test(nowhere.c_str(), G_FILE_TEST_EXISTS));
    }
    CHECK(export_chart(chart, base + "/tiny.png", ExportFormat::Png, "", 0, 300, theme) != "");
    CHECK(!g_file_test((base + "/tiny.png").c_str(), G_FILE_TEST_EXISTS));

    // Only the pictures were left in the folder: no temporary files.
    const std::unique_ptr<GDir, decltype(&g_dir_close)> listing(g_dir_open(base.c_str(), 0, nullptr), &g_dir_close);
    REQUIRE(listing);
    std::vector<std::string> names;
    while (const char* name = g_dir_read_name(listing.get()))
        names.emplace_back(name);
    std::sort(names.begin(), names.end());
    CHECK(names == std::vector<std::string> { "graph.PDF", "graph.png", "graph.svg", "titled.png", "untitled.png" });
    for (const std::string& name : names)
        g_remove((base + "/" + name).c_str());
    g_rmdir(base.c_str());
}

namespace {

// CIE L*a*b* of an sRGB colour (D65 white), for colour differences.
std::array<double, 3> lab(Rgba colour)
{
    auto linear = [](double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    const double r = linear(colour.red);
    const double g = linear(colour.green);
    const double b = linear(colour.blue);
    const double xyz[] = { (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047, 0.2126 * r + 0.7152 * g + 0.0722 * b,
                           (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883 };
    double f[3];
    for (int i = 0; i < 3; ++i)
        f[i] = xyz[i] > 216.0 / 24389 ? std::cbrt(xyz[i]) : (24389.0 / 27 * xyz[i] + 16) / 116;
    return { 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]) };
}

double delta_e(Rgba a, Rgba b)
{
    const auto x = lab(a);
    const auto y = lab(b);
    return std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

} // namespace

TEST_CASE("series colours are readable on both themes and the reference stands apart", "[client][chart]")
{
    CHECK(contrast_ratio({ 1, 1, 1, 1 }, { 0, 0, 0, 1 }) == Approx(21));
    CHECK(contrast_ratio({ 0.5, 0.2, 0.1, 1 }, { 0.5, 0.2, 0.1, 1 }) == Approx(1));
    // #767676 on white is the WCAG's classic just-passing 4.5:1 grey.
    CHECK(contrast_ratio({ 0x76 / 255.0, 0x76 / 255.0, 0x76 / 255.0, 1 }, { 1, 1, 1, 1 }) == Approx(4.54).margin(0.01));

    for (const ChartTheme& theme : { ChartTheme::light(), ChartTheme::dark() }) {
        REQUIRE(theme.current.size() >= 4);
        CHECK(contrast_ratio(theme.foreground, theme.background) >= 7); // label text
        CHECK(contrast_ratio(theme.reference, theme.background) >= 3);
        for (std::size_t i = 0; i < theme.current.size(); ++i) {
            INFO("current colour " << i);
            const Rgba colour = theme.current_colour(i);
            CHECK(contrast_ratio(colour, theme.background) >= 3);
            // Apart from the reference: CIE76 colour difference, where 2 is
            // just noticeable and above 25 reads as another colour.
            CHECK(delta_e(colour, theme.reference) >= 25);
            for (std::size_t j = 0; j < i; ++j)
                CHECK(delta_e(colour, theme.current_colour(j)) >= 25);
        }
        CHECK(delta_e(theme.current_colour(0), theme.reference) >= 60);
        // The first current colour (most graphs have one series) and the
        // reference: blue against orange, opposite hues.
        const Rgba first = theme.current_colour(0);
        CHECK(first.blue - first.red > 0.3);
        CHECK(theme.reference.red - theme.reference.blue > 0.3);
        CHECK(theme.current_colour(theme.current.size()) .red == first.red); // wraps around
        // Four results compared at once: each its own colour, readable, apart
        // from each other and from the current blue; the first the reference.
        REQUIRE(theme.overlays.size() >= 4);
        CHECK(delta_e(theme.overlay_colour(0), theme.reference) == 0);
        for (std::size_t i = 0; i < 4; ++i) {
            INFO("overlay colour " << i);
            CHECK(contrast_ratio(theme.overlay_colour(i), theme.background) >= 3);
            CHECK(delta_e(theme.overlay_colour(i), first) >= 25);
            for (std::size_t j = 0; j < i; ++j)
                CHECK(delta_e(theme.overlay_colour(i), theme.overlay_colour(j)) >= 25);
        }
    }
    CHECK(ChartTheme::light() == ChartTheme::light());
    CHECK(!(ChartTheme::light() == ChartTheme::dark()));
}

TEST_CASE("four results compared at once are drawn and named, each in its colour", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec;
    spec.style = ChartStyle::Bar;
    spec.x_scale = AxisScale::Log2;
    spec.x_unit = Unit::Bytes;
    spec.y_unit = Unit::MegabytesPerSecond;
    Chart chart(spec);
    chart.set_current({ { "now", { { 4096, 90 }, { 65536, 300 } }, {}, {} } });
    std::vector<ChartSeries> overlays;
    for (std::size_t k = 0; k < 4; ++k) {
        ChartSeries series { "run " + std::to_string(k), { { 4096, 80.0 + 5 * k }, { 65536, 250.0 + 10 * k } }, {}, {} };
        series.overlay = k;
        overlays.push_back(std::move(series));
    }
    chart.set_reference(overlays);
    Image image(900, 400);
    chart.paint(image.cr.get(), 900, 400, theme);
    // Every overlay's bars (and its legend swatch) in its own colour.
    for (std::size_t k = 0; k < 4; ++k) {
        INFO("overlay " << k);
        CHECK(count_pixels(image, 0, 0, 900, 400, theme.overlay_colour(k), theme.background) > 200);
    }
    CHECK(count_pixels(image, 0, 0, 900, 400, theme.current_colour(0), theme.background) > 200);
}

TEST_CASE("a dip in a million points shows through the cached drawing", "[client][chart]")
{
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec = line_spec();
    spec.x_low = 0;
    spec.x_high = 1e6 * 1048576.0;
    Chart chart(spec);
    std::vector<SeriesPoint> points;
    points.reserve(1'000'000);
    for (int i = 0; i < 1'000'000; ++i)
        points.push_back({ i * 1048576.0, i >= 612'340 && i < 612'360 ? 15.0 : 180.0 });
    // Streamed in as a surface map would, drawn after every chunk.
    Image image(1120, 600);
    for (std::size_t start = 0; start < points.size(); start += 125'000) {
        chart.append_points(0, std::span(points).subspan(start, 125'000));
        chart.paint(image.cr.get(), 1120, 600, theme);
    }
    CHECK(chart.cache_stats().envelope_rebuilds == 1);
    CHECK(chart.cache_stats().envelope_updates == 7);
    const PlotArea area = chart.last_plot_area();
    const Rgba colour = theme.current_colour(0);
    const int dip_x = static_cast<int>(area.to_x(612'350 * 1048576.0));
    // The band reaches down to the 15 MB/s of 20 reads among a million
    // (paint_envelope() may place a column a pixel left of to_x())...
    double deepest = 0;
    for (int x = dip_x - 1; x <= dip_x + 1; ++x)
        deepest = std::max(deepest, tint(image.at(x, static_cast<int>(area.to_y(20))), colour, theme.background));
    CHECK(deepest > 0.2);
    // ...only there...
    const int low = static_cast<int>(area.to_y(20));
    CHECK(tint(image.at(dip_x - 30, low), colour, theme.background) == Approx(0).margin(0.02));
    CHECK(tint(image.at(dip_x + 30, low), colour, theme.background) == Approx(0).margin(0.02));
    // ...while the mean line stays at 180.
    CHECK(shows(image, dip_x - 30, static_cast<int>(area.to_y(180)), colour, theme.background, 0.5));
}

TEST_CASE("a band grown by appends draws like the same band given whole", "[client][chart]")
{
    // The surface map's page grows mean, min and max as buckets arrive.
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec = line_spec();
    spec.x_low = 0;
    spec.x_high = 5000;
    ChartSeries whole = wave("now", 5000, 1, 100);
    for (const SeriesPoint& point : whole.points) {
        whole.band_min.push_back({ point.x, point.y - 20 - (static_cast<int>(point.x) % 997 == 0 ? 60 : 0) });
        whole.band_max.push_back({ point.x, point.y + 10 });
    }
    Chart given(spec);
    given.set_current({ whole });
    Chart grown(spec);
    grown.set_current_label(0, "now");
    for (std::size_t start = 0; start < whole.points.size(); start += 777) {
        const std::size_t count = std::min<std::size_t>(777, whole.points.size() - start);
        grown.append_points(0, std::span(whole.points).subspan(start, count));
        // min and max arrive as separate series, at different times
        grown.append_band(0, std::span(whole.band_min).subspan(start, count), {});
        grown.append_band(0, {}, std::span(whole.band_max).subspan(start, count));
        Image partial(700, 350);
        grown.paint(partial.cr.get(), 700, 350, theme); // caches built on partial data
    }
    Image a(700, 350), b(700, 350);
    given.paint(a.cr.get(), 700, 350, theme);
    grown.paint(b.cr.get(), 700, 350, theme);
    CHECK(a.bytes() == b.bytes());
    // The kept band columns give the picture the export path draws from points.
    Image c(700, 350);
    grown.paint_uncached(c.cr.get(), 700, 350, theme);
    CHECK(c.bytes() == b.bytes());
    // And the band is there: its tint below the line at a dip column.
    Image plain(700, 350);
    Chart no_band(spec);
    no_band.set_current({ wave("now", 5000, 1, 100) });
    no_band.paint(plain.cr.get(), 700, 350, theme);
    CHECK(plain.bytes() != b.bytes());
}

TEST_CASE("the right-hand axis of a temperature: round ticks around the data, not from 0", "[client][chart]")
{
    std::setlocale(LC_ALL, "C");
    DataExtent warm;
    warm.add(SeriesPoint { 0, 41 });
    warm.add(SeriesPoint { 60, 52 });
    const AxisLayout axis = secondary_y_axis(Unit::Celsius, warm, 300, 11);
    CHECK(axis.low <= 41);
    CHECK(axis.low > 20); // a rise of 11 °C fills the height, not a sliver of 0..60
    CHECK(axis.high >= 52);
    REQUIRE(axis.ticks.size() >= 2);
    for (std::size_t i = 1; i < axis.ticks.size(); ++i)
        CHECK(axis.ticks[i].value > axis.ticks[i - 1].value);
    CHECK(axis.ticks.back().text.find("°C") != std::string::npos);

    // A steady reading: at least 10 °C high, the line in the middle.
    DataExtent steady;
    steady.add(SeriesPoint { 0, 45 });
    steady.add(SeriesPoint { 9, 45 });
    const AxisLayout flat = secondary_y_axis(Unit::Celsius, steady, 300, 11);
    CHECK(flat.high - flat.low >= 10);
    CHECK(flat.low < 45);
    CHECK(flat.high > 45);
}

TEST_CASE("a secondary series is drawn dashed against its own axis, also in exports", "[client][chart]")
{
    std::setlocale(LC_ALL, "C");
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec = line_spec();
    spec.x_unit = Unit::Seconds;
    ChartSeries heat;
    heat.label = "Temperature";
    for (int i = 0; i <= 60; ++i)
        heat.points.push_back({ i * 5e6, 40 + i * 0.5 }); // 40 -> 70 °C
    // Pixels of the secondary colour inside the plot, and where on the
    // right axis' scale a given temperature is.
    auto painted = [&](Chart& chart, bool expect_axis) {
        Image image(800, 400);
        chart.paint(image.cr.get(), 800, 400, theme);
        const PlotArea area = chart.last_plot_area();
        const auto range = chart.last_secondary_range();
        CHECK(range.has_value() == expect_axis);
        return std::pair { count_pixels(image, static_cast<int>(area.left), static_cast<int>(area.top),
                                        static_cast<int>(area.left + area.width),
                                        static_cast<int>(area.top + area.height), theme.secondary, theme.background),
                           std::move(image) };
    };

    Chart chart(spec);
    chart.set_current({ wave("This run", 300, 1e6, 150) });
    CHECK(painted(chart, false).first == 0);

    chart.set_secondary(heat, Unit::Celsius);
    const auto [with_heat, image] = painted(chart, true);
    CHECK(with_heat > 200);
    const auto range = chart.last_secondary_range();
    REQUIRE(range);
    CHECK(range->first <= 40);
    CHECK(range->second >= 70);
    CHECK(range->first > 0);
    // At 150e6 the reading is 55 °C: the dashed line passes that height on
    // the right axis' scale (and not at 55 on the MB/s scale).
    PlotArea right = chart.last_plot_area();
    right.y_low = range->first;
    right.y_high = range->second;
    const int x = static_cast<int>(right.to_x(150e6));
    const int y = static_cast<int>(right.to_y(55));
    // The dash may have a gap just there: a few columns either side.
    CHECK(count_pixels(image, x - 8, y - 4, x + 9, y + 5, theme.secondary, theme.background) > 0);
    // The primary axis still starts at 0 and covers the speed alone.
    CHECK(chart.last_plot_area().y_low == 0);
    CHECK(chart.last_plot_area().y_high < 250);

    // The cached layer (right axis, legend) and an uncached paint agree.
    Image uncached(800, 400);
    chart.paint_uncached(uncached.cr.get(), 800, 400, theme);
    CHECK(uncached.bytes() == image.bytes());
    // Readable in both themes (WCAG 1.4.11: 3:1 for graph lines).
    for (const ChartTheme& any : { ChartTheme::light(), ChartTheme::dark() })
        CHECK(contrast_ratio(any.secondary, any.background) >= 3);

    // Bars have no time to follow: no axis, no line.
    ChartSpec bars = spec;
    bars.style = ChartStyle::Bar;
    chart.set_spec(bars);
    CHECK(painted(chart, false).first == 0);
    chart.set_spec(spec);

    // The export draws the same overlay; without it, none of its colour.
    GError* error = nullptr;
    const GCharPtr dir(g_dir_make_tmp("diskbench-chart-XXXXXX", &error));
    const ErrorPtr dir_error(error);
    REQUIRE(dir);
    const std::string png = std::string(dir.get()) + "/heat.png";
    auto exported_heat_pixels = [&]() {
        REQUIRE(export_chart(chart, png, ExportFormat::Png, "Sustained write", 800, 400, theme) == "");
        const SurfacePtr loaded(cairo_image_surface_create_from_png(png.c_str()));
        REQUIRE(cairo_surface_status(loaded.get()) == CAIRO_STATUS_SUCCESS);
        Image copy(cairo_image_surface_get_width(loaded.get()), cairo_image_surface_get_height(loaded.get()));
        cairo_set_source_surface(copy.cr.get(), loaded.get(), 0, 0);
        cairo_paint(copy.cr.get());
        return count_pixels(copy, 0, 0, copy.width, copy.height, theme.secondary, theme.background, 0.9);
    };
    CHECK(exported_heat_pixels() > 200);
    chart.clear_secondary();
    CHECK(exported_heat_pixels() == 0);
    g_remove(png.c_str());
    g_rmdir(dir.get());
}

TEST_CASE("a partial last point replaced in place draws like the final series given whole", "[client][chart]")
{
    // A surface map's bucket being filled: its partial point is at the end of
    // mean/min/max until a later one replaces it (truncate, then append).
    const ChartTheme theme = ChartTheme::light();
    ChartSpec spec = line_spec();
    spec.x_low = 0;
    spec.x_high = 5000;
    ChartSeries whole = wave("now", 5000, 1, 100);
    for (const SeriesPoint& point : whole.points) {
        whole.band_min.push_back({ point.x, point.y - 20 });
        whole.band_max.push_back({ point.x, point.y + 10 });
    }
    Chart given(spec);
    given.set_current({ whole });
    Chart grown(spec);
    grown.set_current_label(0, "now");
    const std::size_t half = whole.points.size() / 2;
    grown.append_points(0, std::span(whole.points).first(half));
    grown.append_band(0, std::span(whole.band_min).first(half), std::span(whole.band_max).first(half));
    for (double partial : { 5.0, 400.0 }) { // far off the line: a stale one would show
        const SeriesPoint point { whole.points[half].x, partial };
        grown.append_points(0, std::span(&point, 1));
        grown.append_band(0, std::span(&point, 1), std::span(&point, 1));
        Image frame(700, 350);
        grown.paint(frame.cr.get(), 700, 350, theme); // envelopes include the partial point
        grown.truncate_points(0, half);
        grown.truncate_band(0, half, half);
    }
    grown.append_points(0, std::span(whole.points).subspan(half));
    grown.append_band(0, std::span(whole.band_min).subspan(half), std::span(whole.band_max).subspan(half));
    Image a(700, 350), b(700, 350);
    given.paint(a.cr.get(), 700, 350, theme);
    grown.paint(b.cr.get(), 700, 350, theme);
    CHECK(a.bytes() == b.bytes());
}
