// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart_layout.hpp"

#include <cairo.h>

namespace diskbench::client {

// What does not change while data streams in: the background, horizontal
// grid lines, the axes and their labels, the legend and the placeholder.
// Chart::paint() keeps this in an image surface; export draws it directly.
void paint_chart_background(cairo_t* cr, const ChartFrame& frame, const ChartTheme& theme);

} // namespace diskbench::client
