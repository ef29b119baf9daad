// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_data.hpp"

#include "band_painter.hpp"
#include "bar_painter.hpp"
#include "scatter_painter.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

bool in_order(std::span<const SeriesPoint> points, double after) noexcept
{
    for (const SeriesPoint& point : points) {
        if (!(point.x >= after))
            return false;
        after = point.x;
    }
    return true;
}

// Points in the area's x units; only a Log2 axis needs a copy.
std::vector<SeriesPoint> mapped(AxisScale scale, std::span<const SeriesPoint> points)
{
    std::vector<SeriesPoint> out;
    out.reserve(points.size());
    for (const SeriesPoint& point : points)
        out.push_back({ map_x(scale, point.x), point.y });
    return out;
}

void paint_line(cairo_t* cr, const ChartData& data, const StoredSeries& stored, const PlotArea& area, Rgba colour,
                bool kept_envelopes)
{
    const ChartSeries& series = stored.series;
    const AxisScale scale = data.spec.x_scale;
    if (scale == AxisScale::Log2) {
        const std::vector<SeriesPoint> points = mapped(scale, series.points);
        paint_band(cr, area, mapped(scale, series.band_min), mapped(scale, series.band_max), colour);
        paint_line_series(cr, area, points, colour);
        if (points.size() <= 64)
            paint_markers(cr, area, points, colour);
        return;
    }
    if (kept_envelopes && data.uses_band_envelope(stored, area))
        paint_band_columns(cr, area, stored.band_low.columns(), stored.band_high.columns(), colour);
    else
        paint_band(cr, area, series.band_min, series.band_max, colour);
    if (kept_envelopes && data.uses_envelope(stored, area))
        paint_envelope(cr, area, stored.envelope.columns(), colour);
    else
        paint_line_series(cr, area, series.points, colour);
    // Markers only where points are far apart, i.e. a handful of them.
    if (series.points.size() <= 64 && series.points.size() * 8 <= area.width)
        paint_markers(cr, area, series.points, colour);
}

void paint_series(cairo_t* cr, const ChartData& data, const ChartFrame& frame, const StoredSeries& stored,
                  std::size_t member, std::size_t members, Rgba colour, bool kept_envelopes)
{
    const PlotArea& area = frame.area;
    const std::span<const SeriesPoint> points = stored.series.points;
    switch (data.spec.style) {
    case ChartStyle::Line:
        paint_line(cr, data, stored, area, colour, kept_envelopes);
        break;
    case ChartStyle::Bar:
        paint_bars(cr, area, mapped(data.spec.x_scale, points), frame.slot_width, member, members, colour);
        break;
    case ChartStyle::Scatter:
        if (data.spec.x_scale == AxisScale::Log2)
            paint_scatter(cr, area, mapped(data.spec.x_scale, points), colour);
        else
            paint_scatter(cr, area, points, colour);
        break;
    }
}

} // namespace

StoredSeries::StoredSeries(ChartSeries from) : series(std::move(from))
{
    extent.add(series.points);
    extent.add(series.band_min);
    extent.add(series.band_max);
    sorted = in_order(series.points, -DataExtent::none);
    band_sorted = in_order(series.band_min, -DataExtent::none) && in_order(series.band_max, -DataExtent::none);
}

void StoredSeries::append(std::span<const SeriesPoint> points)
{
    if (points.empty())
        return;
    sorted = sorted && in_order(points, series.points.empty() ? -DataExtent::none : series.points.back().x);
    series.points.insert(series.points.end(), points.begin(), points.end());
    extent.add(points);
}

void StoredSeries::append_band(std::span<const SeriesPoint> lower, std::span<const SeriesPoint> upper)
{
    band_sorted = band_sorted
        && in_order(lower, series.band_min.empty() ? -DataExtent::none : series.band_min.back().x)
        && in_order(upper, series.band_max.empty() ? -DataExtent::none : series.band_max.back().x);
    series.band_min.insert(series.band_min.end(), lower.begin(), lower.end());
    series.band_max.insert(series.band_max.end(), upper.begin(), upper.end());
    extent.add(lower);
    extent.add(upper);
}

void StoredSeries::truncate(std::size_t count)
{
    if (count >= series.points.size())
        return;
    series.points.resize(count);
    envelope.clear();
    recompute_extent();
}

void StoredSeries::truncate_band(std::size_t min_count, std::size_t max_count)
{
    const bool lower = min_count < series.band_min.size(), upper = max_count < series.band_max.size();
    if (lower) {
        series.band_min.resize(min_count);
        band_low.clear();
    }
    if (upper) {
        series.band_max.resize(max_count);
        band_high.clear();
    }
    if (lower || upper)
        recompute_extent();
}

void StoredSeries::recompute_extent() noexcept
{
    // A replaced partial value must not keep stretching the axes.
    extent = {};
    extent.add(series.points);
    extent.add(series.band_min);
    extent.add(series.band_max);
}

bool ChartData::has_points() const noexcept
{
    auto any = [](const std::vector<StoredSeries>& all) {
        return std::any_of(all.begin(), all.end(), [](const StoredSeries& s) { return !s.series.points.empty(); });
    };
    return any(current) || any(reference);
}

bool ChartData::uses_envelope(const StoredSeries& series, const PlotArea& area) const noexcept
{
    // The condition under which paint_line_series() draws an envelope.
    return spec.style == ChartStyle::Line && spec.x_scale != AxisScale::Log2
        && series.series.points.size() > static_cast<std::size_t>(std::ceil(area.width))
        && series.envelope.matches(area, series.series.points.size());
}

bool ChartData::uses_band_envelope(const StoredSeries& series, const PlotArea& area) const noexcept
{
    const auto columns = static_cast<std::size_t>(std::ceil(area.width));
    return spec.style == ChartStyle::Line && spec.x_scale != AxisScale::Log2 && series.series.band_min.size() > columns
        && series.series.band_max.size() > columns && series.band_low.matches(area, series.series.band_min.size())
        && series.band_high.matches(area, series.series.band_max.size());
}

bool ChartData::shows_secondary() const noexcept
{
    return secondary && !secondary->series.points.empty() && spec.style == ChartStyle::Line
        && spec.x_scale == AxisScale::Linear;
}

LayoutInput ChartData::layout_input(double width, double height, double font_size) const
{
    LayoutInput input;
    input.spec = spec;
    input.width = width;
    input.height = height;
    input.font_size = font_size;
    input.placeholder = placeholder;
    for (const auto* all : { &current, &reference })
        for (const StoredSeries& stored : *all)
            input.extent.add(stored.extent);
    if (running_x && std::isfinite(*running_x))
        input.extent.add(SeriesPoint { *running_x, 0 });
    input.has_content = has_points() || (spec.style == ChartStyle::Bar && running_x.has_value());

    if (spec.style == ChartStyle::Bar && spec.x_scale == AxisScale::Linear) {
        // Bar charts have a few dozen points: finding the slots each frame is cheap.
        for (const auto* all : { &current, &reference })
            for (const StoredSeries& stored : *all)
                for (const SeriesPoint& point : stored.series.points)
                    input.bar_xs.push_back(point.x);
        if (running_x)
            input.bar_xs.push_back(*running_x);
        std::sort(input.bar_xs.begin(), input.bar_xs.end());
        input.bar_xs.erase(std::unique(input.bar_xs.begin(), input.bar_xs.end()), input.bar_xs.end());
    }

    for (std::size_t i = 0; i < current.size(); ++i)
        if (!current[i].series.label.empty())
            input.legend.push_back(
                { current[i].series.label, LegendRole::Current, i, spec.style == ChartStyle::Line });
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const std::string& label = reference[i].series.label;
        /* TRANSLATORS: legend entry of the result a graph is compared with, when it has no name */
        input.legend.push_back({ label.empty() ? std::string(_("Reference")) : label, LegendRole::Reference,
                                 reference[i].series.overlay });
    }
    if (has_points() && shows_secondary()) {
        input.secondary_extent = secondary->extent;
        input.secondary_unit = secondary_unit;
        if (!secondary->series.label.empty())
            input.legend.push_back({ secondary->series.label, LegendRole::Secondary, 0 });
    }
    return input;
}

void paint_chart_data(cairo_t* cr, const ChartData& data, const ChartFrame& frame, const ChartTheme& theme,
                      bool kept_envelopes)
{
    if (!frame.axes)
        return;
    // Bars: a place in each group per current series with points (at least
    // one: the running bar goes there before the first value), then one per
    // reference series. Series kept empty (labelled or reserved ahead) get none.
    const auto filled = static_cast<std::size_t>(std::count_if(data.current.begin(), data.current.end(), [](const StoredSeries& s) {
        return !s.series.points.empty() && !s.series.faint;
    }));
    const std::size_t current_members = std::max<std::size_t>(1, filled);
    const std::size_t members = current_members + data.reference.size();
    // The reference first, so the current result is drawn over it.
    for (std::size_t i = 0; i < data.reference.size(); ++i)
        paint_series(cr, data, frame, data.reference[i], current_members + i, members,
                     theme.overlay_colour(data.reference[i].series.overlay),
                     kept_envelopes);
    // Passes first and faint, so the median is drawn over them.
    if (data.spec.style == ChartStyle::Line)
        for (const StoredSeries& pass : data.current)
            if (pass.series.faint) {
                Rgba faint = theme.current_colour(0);
                faint.alpha *= 0.3;
                paint_series(cr, data, frame, pass, 0, members, faint, kept_envelopes);
            }
    std::size_t member = 0;
    for (std::size_t i = 0; i < data.current.size(); ++i) {
        if (data.current[i].series.faint)
            continue;
        // Past the palette (the QD sweep's 7 thread counts) the colours
        // come round again: those lines are dotted (and their legend
        // swatches hollow, ChartTheme::second_round), apart from the
        // temperature's longer dashes.
        const bool dotted = theme.second_round(i) && data.spec.style == ChartStyle::Line;
        if (dotted) {
            cairo_save(cr);
            static constexpr double dots[] = { 4, 3 };
            cairo_set_dash(cr, dots, 2, 0);
        }
        paint_series(cr, data, frame, data.current[i], member, members, theme.current_colour(i), kept_envelopes);
        if (dotted)
            cairo_restore(cr);
        member += data.current[i].series.points.empty() ? 0 : 1;
    }
    if (frame.secondary && data.shows_secondary()) {
        // Over everything, dashed, against the right-hand axis' range.
        PlotArea right_axis = frame.area;
        right_axis.y_low = frame.y2_low;
        right_axis.y_high = frame.y2_high;
        cairo_save(cr);
        static constexpr double dashes[] = { 6, 3 };
        cairo_set_dash(cr, dashes, 2, 0);
        paint_line_series(cr, right_axis, data.secondary->series.points, theme.secondary);
        cairo_restore(cr);
    }
    if (data.spec.style == ChartStyle::Bar && data.running_x)
        paint_running_bar(cr, frame.area, map_x(data.spec.x_scale, *data.running_x), data.running_fraction,
                          frame.slot_width, members, theme.current_colour(0));
}

} // namespace diskbench::client
