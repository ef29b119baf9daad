// SPDX-License-Identifier: GPL-3.0-or-later
#include "scatter_painter.hpp"

#include <cmath>
#include <numbers>

namespace diskbench::client {

namespace {

void clip_to(cairo_t* cr, const PlotArea& area)
{
    cairo_rectangle(cr, area.left, area.top, area.width, area.height);
    cairo_clip(cr);
}

} // namespace

void paint_scatter(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, Rgba colour)
{
    if (points.empty())
        return;
    cairo_save(cr);
    clip_to(cr, area);
    for (const SeriesPoint& point : points) {
        const double x = std::floor(area.to_x(point.x));
        const double y = std::floor(area.to_y(point.y));
        if (std::isfinite(x) && std::isfinite(y))
            cairo_rectangle(cr, x - 1, y - 1, 3, 3);
    }
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha);
    cairo_fill(cr);
    cairo_restore(cr);
}

void paint_markers(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, Rgba colour)
{
    if (points.empty())
        return;
    cairo_save(cr);
    clip_to(cr, area);
    for (const SeriesPoint& point : points) {
        const double x = area.to_x(point.x);
        const double y = area.to_y(point.y);
        if (!std::isfinite(x) || !std::isfinite(y))
            continue;
        cairo_new_sub_path(cr);
        cairo_arc(cr, x, y, 3, 0, 2 * std::numbers::pi);
    }
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha);
    cairo_fill(cr);
    cairo_restore(cr);
}

} // namespace diskbench::client
