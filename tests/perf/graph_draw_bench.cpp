// SPDX-License-Identifier: GPL-3.0-or-later
// How long one frame of a whole-surface map takes to draw: 1 M points
// onto an image surface (Cairo's software rasteriser, what
// GSK_RENDERER=cairo uses too). The target is < 8 ms per frame. Prints the
// mean, median and worst of 50 frames per case. A benchmark, not a test:
// it prints and judges nothing.
//
// Cases: the bare painter (paint_line_series / paint_envelope on a
// 1200x500 surface), then the Chart class on a 1120x600 surface as the
// window uses it: a redraw with nothing new (cached layer and envelope), a
// frame after 1000 new points of a growing 1 M series (the live surface
// map; with and without reserve_points()), and paint_uncached() for
// comparison (what export does).
#include "chart/chart.hpp"
#include "chart/chart_handles.hpp"
#include "chart/series_painter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

using namespace diskbench::client;

constexpr int frames = 50;
constexpr std::size_t million = 1'000'000;
constexpr double bucket_bytes = 4e6;

std::vector<SeriesPoint> surface_map()
{
    std::vector<SeriesPoint> points;
    points.reserve(million);
    for (std::size_t i = 0; i < million; ++i) {
        const double at = static_cast<double>(i);
        points.push_back({ at * bucket_bytes, 150 + 30 * std::sin(at / 5000.0) - (i % 997 == 0 ? 80 : 0) });
    }
    return points;
}

// Times `frame` (given the frame number and a fresh cairo_t on a cleared
// surface, as a widget's draw function gets) and prints the figures.
void measure(const char* what, cairo_surface_t* surface, const std::function<void(int, cairo_t*)>& frame)
{
    std::vector<double> ms;
    for (int i = 0; i < frames; ++i) {
        const CairoPtr cr(cairo_create(surface));
        cairo_set_operator(cr.get(), CAIRO_OPERATOR_CLEAR);
        cairo_paint(cr.get());
        cairo_set_operator(cr.get(), CAIRO_OPERATOR_OVER);
        const auto start = std::chrono::steady_clock::now();
        frame(i, cr.get());
        cairo_surface_flush(surface);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    double sum = 0;
    for (double m : ms)
        sum += m;
    std::printf("%-62s %d frames: mean %6.2f ms, median %6.2f ms, worst %6.2f ms\n", what, frames, sum / frames,
                ms[frames / 2], ms.back());
}

void painter_cases(const std::vector<SeriesPoint>& points)
{
    const SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1200, 500));
    const PlotArea area { 60, 10, 1120, 460, 0, 4e12, 0, 200 };
    // A frame after new points arrived (envelope + paint) and a redraw with
    // the envelope kept from before (expose, theme change, progress only).
    measure("painter, 1 M points, 1120 px, envelope + paint", surface.get(),
            [&](int, cairo_t* cr) { paint_line_series(cr, area, points, { 0.2, 0.4, 0.8, 1 }); });
    const std::vector<EnvelopeColumn> kept = envelope_for(area, points);
    measure("painter, 1 M points, 1120 px, kept envelope, paint only", surface.get(),
            [&](int, cairo_t* cr) { paint_envelope(cr, area, kept, { 0.2, 0.4, 0.8, 1 }); });
}

ChartSpec surface_spec()
{
    ChartSpec spec;
    spec.style = ChartStyle::Line;
    spec.x_unit = Unit::Bytes;
    spec.y_unit = Unit::MegabytesPerSecond;
    // The device's size: the axis does not rescale as the map fills in.
    spec.x_low = 0;
    spec.x_high = static_cast<double>(million) * bucket_bytes;
    return spec;
}

void chart_cases(const std::vector<SeriesPoint>& points)
{
    const SurfacePtr surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1120, 600));
    const ChartTheme theme = ChartTheme::light();
    const std::span<const SeriesPoint> all(points);

    Chart full(surface_spec());
    full.set_current_label(0, "/dev/sda");
    full.append_points(0, all);
    {
        const CairoPtr warm_up(cairo_create(surface.get())); // builds the layer and envelope
        full.paint(warm_up.get(), 1120, 600, theme);
    }
    measure("Chart::paint, 1 M points already appended, redraw", surface.get(),
            [&](int, cairo_t* cr) { full.paint(cr, 1120, 600, theme); });
    measure("Chart::paint_uncached, 1 M points (export's path)", surface.get(),
            [&](int, cairo_t* cr) { full.paint_uncached(cr, 1120, 600, theme); });

    // Grows to 1 M: 1000 points appended before each measured frame's paint
    // (the append is timed too). Without reserve_points() one of the frames
    // also pays for the series' storage being copied as it outgrows it.
    for (const bool reserve : { false, true }) {
        Chart growing(surface_spec());
        growing.set_current_label(0, "/dev/sda");
        if (reserve)
            growing.reserve_points(0, million);
        const std::size_t first = million - frames * 1000;
        growing.append_points(0, all.first(first));
        {
            const CairoPtr warm_up(cairo_create(surface.get()));
            growing.paint(warm_up.get(), 1120, 600, theme);
        }
        measure(reserve ? "Chart::paint, +1000 points per frame to 1 M, reserved"
                        : "Chart::paint, +1000 points per frame, growing to 1 M",
                surface.get(), [&](int frame, cairo_t* cr) {
                    growing.append_points(0, all.subspan(first + static_cast<std::size_t>(frame) * 1000, 1000));
                    growing.paint(cr, 1120, 600, theme);
                });
        const ChartCacheStats stats = growing.cache_stats();
        std::printf("  (%zu layer build, %zu full envelope, %zu partial envelope updates)\n", stats.layer_builds,
                    stats.envelope_rebuilds, stats.envelope_updates);
    }

    // The surface page as the app draws it: the mean line plus the min..max
    // band of every bucket (the band is not kept between frames).
    std::vector<SeriesPoint> lower, upper;
    for (const SeriesPoint& point : points) {
        lower.push_back({ point.x, point.y * 0.8 });
        upper.push_back({ point.x, point.y * 1.1 });
    }
    Chart banded(surface_spec());
    banded.set_current_label(0, "/dev/sda");
    banded.append_points(0, all);
    banded.append_band(0, lower, upper);
    {
        const CairoPtr warm_up(cairo_create(surface.get()));
        banded.paint(warm_up.get(), 1120, 600, theme);
    }
    measure("Chart::paint, 1 M points with a 1 M-point min/max band", surface.get(),
            [&](int, cairo_t* cr) { banded.paint(cr, 1120, 600, theme); });
}

} // namespace

int main()
{
    const std::vector<SeriesPoint> points = surface_map();
    painter_cases(points);
    chart_cases(points);
    return 0;
}
