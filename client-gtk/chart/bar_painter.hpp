// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "series_painter.hpp"

#include <cairo.h>

#include <cstddef>
#include <span>

namespace diskbench::client {

// Bars share their x position ("slot", `slot_width` wide in the area's x
// units) as a group: `members` bars side by side (the current series, then
// the reference), filling 80 % of the slot so neighbouring groups stay apart.
struct BarSpan {
    double left = 0, right = 0; // whole pixels
};
BarSpan bar_span(const PlotArea& area, double x, double slot_width, std::size_t member, std::size_t members) noexcept;

// One filled bar per point, from the baseline (0, or the axis bottom) to y,
// on whole pixels. `points` are in the area's x units (already mapped).
void paint_bars(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, double slot_width,
                std::size_t member, std::size_t members, Rgba colour);

// The bar being measured: an outline over the whole plot height with the
// inside filled, translucent, from the bottom up to `fraction` (0..1).
void paint_running_bar(cairo_t* cr, const PlotArea& area, double x, double fraction, double slot_width,
                       std::size_t members, Rgba colour);

} // namespace diskbench::client
