// SPDX-License-Identifier: GPL-3.0-or-later
// How long one frame of a whole-surface map takes to draw: 1 M points
// through paint_line_series() onto a 1200x500 image surface (Cairo's
// software rasteriser, what GSK_RENDERER=cairo uses too). Prints the mean,
// median and worst of 50 frames; the target is < 8 ms per frame. A
// benchmark, not a test: it prints and judges nothing.
#include "widgets/series_painter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

int main()
{
    using namespace diskbench::client;
    constexpr int frames = 50;
    std::vector<GraphPoint> points;
    points.reserve(1'000'000);
    for (int i = 0; i < 1'000'000; ++i)
        points.push_back({ static_cast<double>(i) * 4e6, 150 + 30 * std::sin(i / 5000.0) - (i % 997 == 0 ? 80 : 0) });
    cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1200, 500);
    const PlotArea area { 60, 10, 1120, 460, 0, 4e12, 0, 200 };
    // Two cases: a frame after new points arrived (envelope + paint) and a
    // redraw with the envelope kept from before (what a widget does on
    // expose, theme change or a progress-only update).
    const std::vector<EnvelopeColumn> cached = envelope_for(area, points);
    for (const bool recompute : { true, false }) {
        std::vector<double> ms;
        for (int frame = 0; frame < frames; ++frame) {
            cairo_t* cr = cairo_create(surface);
            cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR);
            cairo_paint(cr);
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
            const auto start = std::chrono::steady_clock::now();
            if (recompute)
                paint_line_series(cr, area, points, { 0.2, 0.4, 0.8, 1 });
            else
                paint_envelope(cr, area, cached, { 0.2, 0.4, 0.8, 1 });
            cairo_surface_flush(surface);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
            cairo_destroy(cr);
        }
        std::sort(ms.begin(), ms.end());
        double sum = 0;
        for (double m : ms)
            sum += m;
        std::printf("1,000,000 points, 1120 px wide, %s, %d frames: mean %.2f ms, median %.2f ms, worst %.2f ms\n",
                    recompute ? "envelope + paint" : "kept envelope, paint only", frames, sum / frames,
                    ms[frames / 2], ms.back());
    }
    cairo_surface_destroy(surface);
    return 0;
}
