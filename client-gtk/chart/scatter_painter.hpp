// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "series_painter.hpp"

#include <cairo.h>

#include <span>

namespace diskbench::client {

// One small dot per point (3 × 3 pixels, on whole pixels): thousands of
// seeks fill in one path and one fill, and dense areas stay readable.
void paint_scatter(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, Rgba colour);

// Round markers on the points of a short line (QD curves: a handful of
// queue depths), so each measured value is visible, not only the line.
void paint_markers(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, Rgba colour);

} // namespace diskbench::client
