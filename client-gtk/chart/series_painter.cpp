// SPDX-License-Identifier: GPL-3.0-or-later
#include "series_painter.hpp"

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

bool drawable(const PlotArea& area) noexcept
{
    return area.width > 0 && area.height > 0 && area.x_high > area.x_low && area.y_high > area.y_low;
}

std::size_t pixel_columns(const PlotArea& area) noexcept
{
    return static_cast<std::size_t>(std::ceil(area.width));
}

void begin(cairo_t* cr, const PlotArea& area)
{
    cairo_save(cr);
    cairo_rectangle(cr, area.left, area.top, area.width, area.height);
    cairo_clip(cr);
    cairo_set_line_width(cr, 1.5);
}

} // namespace

std::vector<EnvelopeColumn> envelope_for(const PlotArea& area, std::span<const SeriesPoint> points)
{
    if (!drawable(area))
        return {};
    return envelope(points, area.x_low, area.x_high, pixel_columns(area));
}

void paint_envelope(cairo_t* cr, const PlotArea& area, std::span<const EnvelopeColumn> band, Rgba colour)
{
    if (band.empty() || !drawable(area))
        return;
    begin(cr, area);
    // The band: one pixel-wide box per column from its minimum to its
    // maximum. Boxes on whole pixels take Cairo's fast path, several times
    // quicker than filling the same outline as one polygon (measured with
    // tests/perf/graph_draw_bench).
    const double column_width = area.width / static_cast<double>(pixel_columns(area));
    for (const EnvelopeColumn& column : band) {
        const double x = std::floor(area.to_x(column.x) - column_width / 2);
        const double top = std::floor(area.to_y(column.max));
        const double bottom = std::ceil(area.to_y(column.min));
        cairo_rectangle(cr, x, top, std::max(1.0, std::round(column_width)), std::max(1.0, bottom - top));
    }
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha * 0.35);
    cairo_fill(cr);

    cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL);
    cairo_move_to(cr, area.to_x(band.front().x), area.to_y(band.front().mean));
    for (const EnvelopeColumn& column : band.subspan(1))
        cairo_line_to(cr, area.to_x(column.x), area.to_y(column.mean));
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha);
    cairo_stroke(cr);
    cairo_restore(cr);
}

void paint_line_series(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, Rgba colour)
{
    if (points.empty() || !drawable(area))
        return;
    if (points.size() > pixel_columns(area)) {
        const std::vector<EnvelopeColumn> band = envelope_for(area, points);
        paint_envelope(cr, area, band, colour);
        return;
    }
    begin(cr, area);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_move_to(cr, area.to_x(points.front().x), area.to_y(points.front().y));
    for (const SeriesPoint& point : points.subspan(1))
        cairo_line_to(cr, area.to_x(point.x), area.to_y(point.y));
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha);
    cairo_stroke(cr);
    cairo_restore(cr);
}

} // namespace diskbench::client
