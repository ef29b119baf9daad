// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "envelope.hpp"

#include <cairo.h>

#include <span>

namespace diskbench::client {

// Where a graph's data goes on the surface, and which values the edges show.
struct PlotArea {
    double left = 0, top = 0, width = 0, height = 0;
    double x_low = 0, x_high = 1, y_low = 0, y_high = 1;

    [[nodiscard]] double to_x(double x) const noexcept { return left + (x - x_low) / (x_high - x_low) * width; }
    [[nodiscard]] double to_y(double y) const noexcept { return top + height - (y - y_low) / (y_high - y_low) * height; }
};

struct Rgba {
    double red = 0, green = 0, blue = 0, alpha = 1;
};

// Draws a line series. With more points than pixel columns it draws, per
// column, a translucent min..max band and the mean line (see envelope()), so
// a million-point surface map costs one path of a few thousand segments and
// still shows every slow spot. The same code draws on screen and into
// PNG/SVG/PDF surfaces for export.
void paint_line_series(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, Rgba colour);

// The pixel columns paint_line_series() would draw for many points: one per
// pixel of `area`'s width. Widgets keep them between frames and recompute
// only when points arrive or the size changes.
std::vector<EnvelopeColumn> envelope_for(const PlotArea& area, std::span<const SeriesPoint> points);

// Draws columns made by envelope_for() for the same area: the min..max band
// and the mean line.
void paint_envelope(cairo_t* cr, const PlotArea& area, std::span<const EnvelopeColumn> band, Rgba colour);

} // namespace diskbench::client
