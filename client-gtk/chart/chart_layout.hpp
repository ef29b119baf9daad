// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart.hpp"
#include "chart_text.hpp"

#include <cstddef>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::client {

// Where on the x axis a value goes: log2 on a Log2 axis (NaN for x <= 0,
// which such an axis cannot show), the value itself otherwise.
double map_x(AxisScale scale, double x) noexcept;

// The smallest and largest coordinates of some series, kept up to date as
// points arrive so a frame never scans a million points to find its axes.
struct DataExtent {
    static constexpr double none = std::numeric_limits<double>::infinity();
    double x_min = none, x_max = -none, y_min = none, y_max = -none;
    double positive_x_min = none; // for Log2 axes

    void add(SeriesPoint point) noexcept;
    void add(std::span<const SeriesPoint> points) noexcept;
    void add(const DataExtent& other) noexcept;
    [[nodiscard]] bool empty() const noexcept { return !(x_min <= x_max); }
};

// A label of an axis: its text, the top-left corner where it is drawn and
// the pixel position of its tick (x axis) or grid line (y axis).
struct AxisLabel {
    std::string text;
    double x = 0, y = 0;
    double tick = 0;
    bool operator==(const AxisLabel&) const = default;
};

enum class LegendRole { Current, Reference, Secondary };

// A legend entry before layout: its text and which colour its swatch takes.
struct LegendItem {
    std::string text;
    LegendRole role = LegendRole::Current;
    std::size_t index = 0; // into ChartTheme::current for Current, overlays for Reference
    // A line's entry: past the palette (ChartTheme::second_round) the line
    // is dotted and its swatch hollow; bars and dots keep solid swatches.
    bool line = false;
    bool operator==(const LegendItem&) const = default;
};

struct LegendEntry {
    LegendItem item;
    double swatch_x = 0, swatch_y = 0, swatch_size = 0; // a filled square
    double text_x = 0, text_y = 0;
    bool operator==(const LegendEntry&) const = default;
};

// Everything the cached layer shows for one chart size, and where the data
// goes. Two equal frames draw the same layer, which is how Chart::paint()
// knows it may keep its layer.
struct ChartFrame {
    double width = 0, height = 0;
    bool axes = false; // false: nothing to plot, only the placeholder (if any)
    PlotArea area;
    double slot_width = 1; // bar charts: one x position's share of the axis, in mapped units
    std::vector<AxisLabel> x_labels, y_labels;
    // The right-hand axis (secondary series), when there is one: its labels
    // (x is their left edge) and the range it shows.
    bool secondary = false;
    std::vector<AxisLabel> y2_labels;
    double y2_low = 0, y2_high = 1;
    std::vector<LegendEntry> legend;
    std::string placeholder;
    double placeholder_x = 0, placeholder_y = 0;
    double font_size = 0;

    bool operator==(const ChartFrame& other) const noexcept;
};

// What the layout needs to know about a chart.
struct LayoutInput {
    ChartSpec spec;
    DataExtent extent;           // all current and reference points and bands, and the running bar
    std::vector<double> bar_xs;  // bar charts: the distinct x values, sorted
    std::vector<LegendItem> legend;
    std::string placeholder;
    bool has_content = false;    // something to plot: points or a running bar
    // The secondary series' extent (its y on the right-hand axis), empty for none.
    DataExtent secondary_extent;
    Unit secondary_unit = Unit::Plain;
    double width = 0, height = 0, font_size = 11;
};

using MeasureText = std::function<TextSize(std::string_view)>;

// Margins from the label sizes, round ticks for both axes, the legend row(s)
// above the plot. Deterministic: the same input and measurements give the
// same frame, so cached and uncached drawing agree to the pixel.
ChartFrame layout_chart(const LayoutInput& input, const MeasureText& measure);

// The legend's entries, right-aligned in rows above the plot; `height` gets
// the rows' total height (0 without entries).
std::vector<LegendEntry> layout_legend(std::span<const LegendItem> items, double width, double top,
                                       double font_size, const MeasureText& measure, double& height);

// An axis before it gets pixels: the shown range (mapped units) and the
// ticks with their labels.
struct AxisTick {
    double value = 0; // mapped units
    std::string text;
};
struct AxisLayout {
    double low = 0, high = 1;
    double slot_width = 1;
    std::vector<AxisTick> ticks;
};

// The y axis: from 0 (or the lowest value, if negative) up to round ticks
// above the highest value, at most as many as fit `plot_height`.
AxisLayout y_axis(const ChartSpec& spec, const DataExtent& extent, double plot_height, double font_size);

// The right-hand axis of a secondary series (a temperature): not from 0,
// since 40 -> 52 °C drawn from 0 would look flat, but round ticks around the
// data, at least `min_span` units high so a steady reading stays a flat line
// in the middle instead of noise blown up to the full height.
AxisLayout secondary_y_axis(Unit unit, const DataExtent& extent, double plot_height, double font_size,
                            double min_span = 10);

// The x axis for `plot_width` pixels: as many round ticks (or slot labels,
// for bars, Log2 and categories) as fit without their labels touching.
AxisLayout x_axis(const ChartSpec& spec, const DataExtent& extent, std::span<const double> bar_xs,
                  double plot_width, double font_size, const MeasureText& measure);

} // namespace diskbench::client
