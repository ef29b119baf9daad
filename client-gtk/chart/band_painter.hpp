// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "series_painter.hpp"

#include <cairo.h>

#include <span>

namespace diskbench::client {

// A translucent band from `lower` up to `upper` (both sorted by x), e.g.
// the surface map's per-bucket slowest and fastest speed around its mean
// line. More points than pixels become one box per pixel column spanning
// its extremes, so the band costs a few thousand rectangles at most.
void paint_band(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> lower,
                std::span<const SeriesPoint> upper, Rgba colour);

// The same band from kept columns: envelope_for(area, lower) and
// envelope_for(area, upper), e.g. from an EnvelopeCache.
void paint_band_columns(cairo_t* cr, const PlotArea& area, std::span<const EnvelopeColumn> lower,
                        std::span<const EnvelopeColumn> upper, Rgba colour);

} // namespace diskbench::client
