// SPDX-License-Identifier: GPL-3.0-or-later
// Which values the axes of a chart show and how they are labelled.
#include "axis_ticks.hpp"
#include "chart_layout.hpp"
#include "text/value_format.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace diskbench::client {

namespace {

AxisTicks round_ticks(Unit unit, double low, double high, int max_ticks)
{
    // Byte offsets and sizes read best in powers of two ("512 MiB", "1 GiB").
    return unit == Unit::Bytes ? byte_ticks(low, high, max_ticks) : nice_ticks(low, high, max_ticks);
}

// Whether the labels of `ticks` fit side by side on a `plot_width` axis
// showing low..high, with a gap of about one character between them.
bool labels_fit(const AxisLayout& axis, double plot_width, double font_size, const MeasureText& measure)
{
    double previous_right = -DataExtent::none;
    for (const AxisTick& tick : axis.ticks) {
        const double centre = (tick.value - axis.low) / (axis.high - axis.low) * plot_width;
        const double width = measure(tick.text).width;
        if (centre - width / 2 < previous_right + font_size)
            return false;
        previous_right = centre + width / 2;
    }
    return true;
}

// Every `stride`-th of `all` ticks, doubling the stride until the labels fit:
// for slots (bars, Log2, categories) every label sits on its bar or power of two.
AxisLayout thin_out(AxisLayout axis, double plot_width, double font_size, const MeasureText& measure)
{
    const std::vector<AxisTick> all = std::move(axis.ticks);
    for (std::size_t stride = 1;; stride *= 2) {
        axis.ticks.clear();
        for (std::size_t i = 0; i < all.size(); i += stride)
            axis.ticks.push_back(all[i]);
        if (axis.ticks.size() <= 1 || labels_fit(axis, plot_width, font_size, measure))
            return axis;
    }
}

AxisLayout category_axis(const ChartSpec& spec, const DataExtent& extent)
{
    std::size_t count = spec.categories.size();
    if (!extent.empty() && extent.x_max >= 0)
        count = std::max(count, static_cast<std::size_t>(std::floor(extent.x_max)) + 1);
    count = std::max<std::size_t>(count, 1);
    AxisLayout axis { -0.5, static_cast<double>(count) - 0.5, 1, {} };
    for (std::size_t i = 0; i < count; ++i) {
        // Past the named categories: numbered, counting from 1 as people do.
        std::string label = i < spec.categories.size() ? spec.categories[i] : fmt::format("{}", i + 1);
        axis.ticks.push_back({ static_cast<double>(i), std::move(label) });
    }
    return axis;
}

AxisLayout log2_axis(const ChartSpec& spec, const DataExtent& extent)
{
    const double data_low = extent.positive_x_min < DataExtent::none ? extent.positive_x_min : 1;
    const double data_high = extent.x_max > 0 ? extent.x_max : data_low;
    const double low_value = spec.x_low && *spec.x_low > 0 ? *spec.x_low : data_low;
    const double high_value = spec.x_high && *spec.x_high > 0 ? *spec.x_high : data_high;
    const double low = std::floor(std::log2(low_value));
    const double high = std::max(low, std::ceil(std::log2(high_value)));
    // Half a step beyond the first and last power, so their bars (or line
    // ends and markers) are not cut in half by the plot's edge.
    AxisLayout axis { low - 0.5, high + 0.5, 1, {} };
    for (double power = low; power <= high; ++power)
        axis.ticks.push_back({ power, format_value(std::exp2(power), spec.x_unit) });
    return axis;
}

// Bars on a linear axis: one slot per distinct x, as wide as the closest two.
AxisLayout linear_bar_axis(const ChartSpec& spec, std::span<const double> xs)
{
    double slot = xs.size() > 1 ? DataExtent::none : std::max(std::abs(xs.front()), 1.0);
    for (std::size_t i = 1; i < xs.size(); ++i)
        slot = std::min(slot, xs[i] - xs[i - 1]);
    AxisLayout axis { spec.x_low.value_or(xs.front() - slot / 2), spec.x_high.value_or(xs.back() + slot / 2), slot,
                      {} };
    for (double x : xs)
        axis.ticks.push_back({ x, format_value(x, spec.x_unit) });
    return axis;
}

} // namespace

AxisLayout y_axis(const ChartSpec& spec, const DataExtent& extent, double plot_height, double font_size)
{
    // Throughput, IOPS and latency start at 0 so bar heights compare honestly.
    double low = 0;
    double high = 1;
    if (!extent.empty()) {
        low = std::min(0.0, extent.y_min);
        high = extent.y_max > low ? extent.y_max : low + 1;
    }
    // Grid lines about three text lines apart, 2 to 8 of them.
    const int max_ticks = std::clamp(static_cast<int>(plot_height / (font_size * 3)), 2, 8);
    const AxisTicks ticks = round_ticks(spec.y_unit, low, high, max_ticks);
    AxisLayout axis { ticks.first, ticks.last, 1, {} };
    for (double value : ticks.values)
        axis.ticks.push_back({ value, format_value(value, spec.y_unit, ticks.step) });
    return axis;
}

AxisLayout secondary_y_axis(Unit unit, const DataExtent& extent, double plot_height, double font_size,
                            double min_span)
{
    double low = extent.empty() ? 0 : extent.y_min;
    double high = extent.empty() ? min_span : extent.y_max;
    if (high - low < min_span) {
        const double middle = (low + high) / 2;
        low = middle - min_span / 2;
        high = middle + min_span / 2;
    }
    const int max_ticks = std::clamp(static_cast<int>(plot_height / (font_size * 3)), 2, 8);
    const AxisTicks ticks = nice_ticks(low, high, max_ticks);
    AxisLayout axis { ticks.first, ticks.last, 1, {} };
    for (double value : ticks.values)
        axis.ticks.push_back({ value, format_value(value, unit, ticks.step) });
    return axis;
}

AxisLayout x_axis(const ChartSpec& spec, const DataExtent& extent, std::span<const double> bar_xs, double plot_width,
                  double font_size, const MeasureText& measure)
{
    if (spec.x_scale == AxisScale::Categories)
        return thin_out(category_axis(spec, extent), plot_width, font_size, measure);
    if (spec.x_scale == AxisScale::Log2)
        return thin_out(log2_axis(spec, extent), plot_width, font_size, measure);
    if (spec.style == ChartStyle::Bar && !bar_xs.empty())
        return thin_out(linear_bar_axis(spec, bar_xs), plot_width, font_size, measure);

    // Lines and scatter: a fixed domain if the spec has one, else round ticks
    // around the data, so a streaming graph rescales only when it passes one.
    const double data_low = extent.empty() ? 0 : extent.x_min;
    const double data_high = extent.empty() ? 1 : extent.x_max;
    const double low = spec.x_low.value_or(data_low);
    double high = spec.x_high.value_or(data_high);
    if (!(high > low))
        high = low + (spec.x_high ? 0 : 1);
    AxisLayout axis;
    for (int max_ticks = std::clamp(static_cast<int>(plot_width / (font_size * 5)), 2, 12);; --max_ticks) {
        const AxisTicks ticks = round_ticks(spec.x_unit, low, high, max_ticks);
        axis.low = spec.x_low ? low : ticks.first;
        axis.high = spec.x_high && high > low ? high : ticks.last;
        axis.ticks.clear();
        const double slack = (axis.high - axis.low) * 1e-9;
        for (double value : ticks.values)
            if (value >= axis.low - slack && value <= axis.high + slack)
                axis.ticks.push_back({ value, format_value(value, spec.x_unit, ticks.step) });
        if (labels_fit(axis, plot_width, font_size, measure))
            return axis;
        if (max_ticks <= 2) // too narrow even for two labels: keep every other
            return thin_out(std::move(axis), plot_width, font_size, measure);
    }
}

} // namespace diskbench::client
