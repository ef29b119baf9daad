// SPDX-License-Identifier: GPL-3.0-or-later
#include "bar_painter.hpp"

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

// Bars stand on 0, or on the bottom of the axis when it does not show 0.
double baseline(const PlotArea& area) noexcept
{
    return std::round(area.to_y(std::clamp(0.0, area.y_low, area.y_high)));
}

void clip_to(cairo_t* cr, const PlotArea& area)
{
    cairo_rectangle(cr, area.left, area.top, area.width, area.height);
    cairo_clip(cr);
}

} // namespace

BarSpan bar_span(const PlotArea& area, double x, double slot_width, std::size_t member, std::size_t members) noexcept
{
    members = std::max<std::size_t>(members, 1);
    const double group = slot_width * 0.8;
    const double each = group / static_cast<double>(members);
    const double start = x - group / 2 + each * static_cast<double>(member);
    BarSpan span { std::round(area.to_x(start)), std::round(area.to_x(start + each)) };
    // A one-pixel gap inside the group, so the current bar and its reference
    // read as two bars even where their colours meet.
    if (member + 1 < members && span.right - span.left >= 4)
        span.right -= 1;
    span.right = std::max(span.right, span.left + 1);
    return span;
}

void paint_bars(cairo_t* cr, const PlotArea& area, std::span<const SeriesPoint> points, double slot_width,
                std::size_t member, std::size_t members, Rgba colour)
{
    if (points.empty())
        return;
    cairo_save(cr);
    clip_to(cr, area);
    const double base = baseline(area);
    for (const SeriesPoint& point : points) {
        if (!std::isfinite(point.x) || !std::isfinite(point.y))
            continue;
        const BarSpan span = bar_span(area, point.x, slot_width, member, members);
        const double top = std::round(area.to_y(point.y));
        cairo_rectangle(cr, span.left, std::min(top, base), span.right - span.left, std::abs(base - top));
    }
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha);
    cairo_fill(cr);
    cairo_restore(cr);
}

void paint_running_bar(cairo_t* cr, const PlotArea& area, double x, double fraction, double slot_width,
                       std::size_t members, Rgba colour)
{
    if (!std::isfinite(x))
        return;
    cairo_save(cr);
    clip_to(cr, area);
    const BarSpan span = bar_span(area, x, slot_width, 0, members);
    const double base = baseline(area);
    const double top = area.top;
    const double filled = std::round((base - top) * std::clamp(fraction, 0.0, 1.0));
    cairo_rectangle(cr, span.left, base - filled, span.right - span.left, filled);
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha * 0.35);
    cairo_fill(cr);
    // The outline's 1.5 px stroke lies inside the bar's pixels.
    cairo_set_line_width(cr, 1.5);
    cairo_rectangle(cr, span.left + 0.75, top + 0.75, span.right - span.left - 1.5, base - top - 1.5);
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha);
    cairo_stroke(cr);
    cairo_restore(cr);
}

} // namespace diskbench::client
