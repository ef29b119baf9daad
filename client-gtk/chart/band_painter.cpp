// SPDX-License-Identifier: GPL-3.0-or-later
#include "band_painter.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace diskbench::client {

namespace {

void set_band_colour(cairo_t* cr, Rgba colour)
{
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha * 0.2);
}

// Few points: one polygon along the upper edge and back along the lower.
void polygon(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> lower, std::span<const SeriesPoint> upper)
{
    cairo_move_to(cr, area.to_x(upper.front().x), area.to_y(upper.front().y));
    for (const SeriesPoint& point : upper)
        cairo_line_to(cr, area.to_x(point.x), area.to_y(point.y));
    for (auto point = lower.rbegin(); point != lower.rend(); ++point)
        cairo_line_to(cr, area.to_x(point->x), area.to_y(point->y));
    cairo_close_path(cr);
}

// More points than pixels: one box per pixel column from the highest upper
// to the lowest lower value in it, like paint_envelope() does for lines. A
// polygon through the column extremes would turn a one-column dip into a
// needle too thin to see; the box keeps it a full pixel wide.
void column_boxes(cairo_t* cr, const PlotArea& area, std::span<const EnvelopeColumn> bottom,
                  std::span<const EnvelopeColumn> top)
{
    const double column_width = area.width / std::ceil(area.width);
    auto box = [&](double centre, double high, double low) {
        const double x = std::floor(area.to_x(centre) - column_width / 2);
        const double y_top = std::floor(area.to_y(high));
        const double y_bottom = std::ceil(area.to_y(low));
        cairo_rectangle(cr, x, y_top, std::max(1.0, std::round(column_width)), std::max(1.0, y_bottom - y_top));
    };
    // Both lists are sorted by column and a column's centre is computed the
    // same way in both, so equal centres are the same column.
    auto t = top.begin();
    auto b = bottom.begin();
    while (t != top.end() || b != bottom.end()) {
        if (b == bottom.end() || (t != top.end() && t->x < b->x)) {
            box(t->x, t->max, t->min);
            ++t;
        } else if (t == top.end() || b->x < t->x) {
            box(b->x, b->max, b->min);
            ++b;
        } else {
            box(t->x, std::max(t->max, b->max), std::min(t->min, b->min));
            ++t;
            ++b;
        }
    }
}

} // namespace

void paint_band(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> lower,
                std::span<const SeriesPoint> upper, Rgba colour)
{
    if (lower.empty() || upper.empty() || !(area.width > 0 && area.height > 0))
        return;
    cairo_save(cr);
    cairo_rectangle(cr, area.left, area.top, area.width, area.height);
    cairo_clip(cr);
    const auto columns = static_cast<std::size_t>(std::ceil(area.width));
    if (lower.size() <= columns && upper.size() <= columns)
        polygon(cr, area, lower, upper);
    else
        column_boxes(cr, area, envelope_for(area, lower), envelope_for(area, upper));
    set_band_colour(cr, colour);
    cairo_fill(cr);
    cairo_restore(cr);
}

void paint_band_columns(cairo_t* cr, const PlotArea& area, std::span<const EnvelopeColumn> lower,
                        std::span<const EnvelopeColumn> upper, Rgba colour)
{
    if (lower.empty() || upper.empty() || !(area.width > 0 && area.height > 0))
        return;
    cairo_save(cr);
    cairo_rectangle(cr, area.left, area.top, area.width, area.height);
    cairo_clip(cr);
    column_boxes(cr, area, lower, upper);
    set_band_colour(cr, colour);
    cairo_fill(cr);
    cairo_restore(cr);
}

} // namespace diskbench::client
