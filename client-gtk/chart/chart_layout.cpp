// SPDX-License-Identifier: GPL-3.0-or-later
// Where everything of a chart goes: legend, margins sized by the labels,
// the plot area, the axis labels and the placeholder.
#include "chart_layout.hpp"

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

bool same_area(const PlotArea& a, const PlotArea& b) noexcept
{
    return a.left == b.left && a.top == b.top && a.width == b.width && a.height == b.height && a.x_low == b.x_low
        && a.x_high == b.x_high && a.y_low == b.y_low && a.y_high == b.y_high;
}

void place_placeholder(ChartFrame& frame, const std::string& text, const MeasureText& measure)
{
    if (text.empty())
        return;
    const TextSize size = measure(text);
    frame.placeholder = text;
    frame.placeholder_x = std::round((frame.width - size.width) / 2);
    frame.placeholder_y = std::round((frame.height - size.height) / 2);
}

} // namespace

double map_x(AxisScale scale, double x) noexcept
{
    if (scale != AxisScale::Log2)
        return x;
    return x > 0 ? std::log2(x) : std::numeric_limits<double>::quiet_NaN();
}

void DataExtent::add(SeriesPoint point) noexcept
{
    x_min = std::min(x_min, point.x);
    x_max = std::max(x_max, point.x);
    y_min = std::min(y_min, point.y);
    y_max = std::max(y_max, point.y);
    if (point.x > 0)
        positive_x_min = std::min(positive_x_min, point.x);
}

void DataExtent::add(std::span<const SeriesPoint> points) noexcept
{
    for (const SeriesPoint& point : points)
        add(point);
}

void DataExtent::add(const DataExtent& other) noexcept
{
    x_min = std::min(x_min, other.x_min);
    x_max = std::max(x_max, other.x_max);
    y_min = std::min(y_min, other.y_min);
    y_max = std::max(y_max, other.y_max);
    positive_x_min = std::min(positive_x_min, other.positive_x_min);
}

bool ChartFrame::operator==(const ChartFrame& other) const noexcept
{
    return width == other.width && height == other.height && axes == other.axes && same_area(area, other.area)
        && slot_width == other.slot_width && x_labels == other.x_labels && y_labels == other.y_labels
        && secondary == other.secondary && y2_labels == other.y2_labels && y2_low == other.y2_low
        && y2_high == other.y2_high
        && legend == other.legend && placeholder == other.placeholder && placeholder_x == other.placeholder_x
        && placeholder_y == other.placeholder_y && font_size == other.font_size;
}

ChartFrame layout_chart(const LayoutInput& input, const MeasureText& measure)
{
    ChartFrame frame;
    frame.width = input.width;
    frame.height = input.height;
    frame.font_size = input.font_size;
    if (!input.has_content) {
        place_placeholder(frame, input.placeholder, measure);
        return frame;
    }

    const double font = input.font_size;
    const double pad = std::round(font * 0.5);
    const double tick_length = std::round(font * 0.4);
    const double line = measure("Ag").height;

    double legend_height = 0;
    frame.legend = layout_legend(input.legend, input.width, pad, font, measure, legend_height);
    // Without a legend the top y label still needs half a line above the plot.
    const double top = std::ceil(legend_height > 0 ? pad + legend_height + pad : pad + line / 2);
    const double bottom = std::ceil(tick_length + 2 + line + pad);
    const double plot_height = std::floor(input.height - top - bottom);

    const AxisLayout y = y_axis(input.spec, input.extent, plot_height, font);
    double widest = 0;
    for (const AxisTick& tick : y.ticks)
        widest = std::max(widest, measure(tick.text).width);
    const double left = std::ceil(pad + widest + pad);
    // The last x label is centred on the right edge: keep room for half of
    // it, or for the right-hand axis' labels when there is one.
    const bool secondary = !input.secondary_extent.empty();
    AxisLayout y2;
    double widest_y2 = 0;
    if (secondary) {
        y2 = secondary_y_axis(input.secondary_unit, input.secondary_extent, plot_height, font);
        for (const AxisTick& tick : y2.ticks)
            widest_y2 = std::max(widest_y2, measure(tick.text).width);
    }
    const double right = std::ceil(secondary ? std::max(pad + font * 2, tick_length + pad + widest_y2 + pad)
                                             : pad + font * 2);
    const double plot_width = std::floor(input.width - left - right);
    if (plot_width < 8 || plot_height < 8) {
        frame.legend.clear();
        return frame; // too small for a graph; draw just the background
    }

    const AxisLayout x = x_axis(input.spec, input.extent, input.bar_xs, plot_width, font, measure);
    frame.axes = true;
    frame.slot_width = x.slot_width;
    frame.area = PlotArea { left, top, plot_width, plot_height, x.low, x.high, y.low, y.high };

    for (const AxisTick& tick : y.ticks) {
        const TextSize size = measure(tick.text);
        const double at = frame.area.to_y(tick.value);
        frame.y_labels.push_back({ tick.text, left - pad - size.width, std::round(at - size.height / 2), at });
    }
    if (secondary) {
        frame.secondary = true;
        frame.y2_low = y2.low;
        frame.y2_high = y2.high;
        PlotArea right_axis = frame.area;
        right_axis.y_low = y2.low;
        right_axis.y_high = y2.high;
        for (const AxisTick& tick : y2.ticks) {
            const TextSize size = measure(tick.text);
            const double at = right_axis.to_y(tick.value);
            frame.y2_labels.push_back(
                { tick.text, left + plot_width + tick_length + pad, std::round(at - size.height / 2), at });
        }
    }
    const double label_top = top + plot_height + tick_length + 2;
    for (const AxisTick& tick : x.ticks) {
        const TextSize size = measure(tick.text);
        const double at = frame.area.to_x(tick.value);
        // Kept inside the chart, so the first and last label are never cut.
        const double label_x
            = std::clamp(std::round(at - size.width / 2), 0.0, std::max(0.0, input.width - size.width));
        frame.x_labels.push_back({ tick.text, label_x, label_top, at });
    }
    return frame;
}

} // namespace diskbench::client
