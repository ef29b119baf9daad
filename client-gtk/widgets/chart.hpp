// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "envelope.hpp"
#include "series_painter.hpp"
#include "value_format.hpp"

#include <cairo.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace diskbench::client {

// How a chart draws its series.
//   Line:    value × position (sequential, surface map, QD curves); more
//            points than pixels become a min/max band plus mean line.
//   Bar:     one bar per x (block sizes, profile tests); current and
//            reference bars side by side.
//   Scatter: one dot per point (seek distance × latency).
enum class ChartStyle { Line, Bar, Scatter };

// How the x axis is laid out.
//   Linear:     byte offsets or plain numbers, round ticks.
//   Log2:       block sizes and queue depths: 512, 1 KiB, 2 KiB ... evenly spaced.
//   Categories: x is an index into ChartSpec::categories (profile tests).
enum class AxisScale { Linear, Log2, Categories };

struct ChartSpec {
    ChartStyle style = ChartStyle::Line;
    AxisScale x_scale = AxisScale::Linear;
    Unit x_unit = Unit::Plain;
    Unit y_unit = Unit::Plain;
    std::vector<std::string> categories; // labels for AxisScale::Categories
    // A fixed x domain (e.g. 0..device size for the surface map), so a graph
    // that grows live does not rescale on every sample. Unset: from the data.
    std::optional<double> x_low, x_high;
    // The y axis always starts at 0 for throughput/IOPS; it grows with the data.
};

// One series to draw. `band_min`/`band_max` (optional, same x as `points`)
// draw a translucent band around a line, e.g. the surface map's per-bucket
// min and max around its mean.
struct ChartSeries {
    std::string label; // legend text, already translated
    std::vector<GraphPoint> points;
    std::vector<GraphPoint> band_min, band_max;
};

// Colours and sizes. light()/dark() follow the GNOME palette; current series
// get blues/greens/purples/reds (index = series position, for QD curves per
// thread count), the reference gets orange, so both stay readable in light
// and dark mode and for common colour-vision deficiencies.
struct ChartTheme {
    Rgba background, foreground, grid, reference;
    std::vector<Rgba> current; // at least 4
    double font_size = 11;     // in logical pixels

    static ChartTheme light();
    static ChartTheme dark();
    [[nodiscard]] Rgba current_colour(std::size_t index) const;
};

// A chart's data and its drawing. Keeps what is costly between frames:
// the background/axes/labels layer as an image surface (rebuilt only when
// size, scale, theme or the axis ranges change) and the per-pixel envelopes
// of long line series (updated as points are appended), so a redraw while
// samples stream costs milliseconds even with a million points.
class Chart {
public:
    explicit Chart(ChartSpec spec);
    ~Chart();
    Chart(Chart&&) noexcept;
    Chart& operator=(Chart&&) noexcept;

    [[nodiscard]] const ChartSpec& spec() const noexcept;
    void set_spec(ChartSpec spec);

    // Current results: replaced whole, or grown by appending points to
    // series `index` (created empty up to `index` if needed).
    void set_current(std::vector<ChartSeries> series);
    void append_points(std::size_t index, std::span<const GraphPoint> points);
    void set_current_label(std::size_t index, std::string label);
    void clear_current();

    // The result to compare with (drawn under the current, in the reference colour).
    void set_reference(std::vector<ChartSeries> series);
    void clear_reference();

    // Bar charts: the bar being measured right now (x of the next bar) and
    // how far along it is (0..1), drawn as an outline filling up.
    void set_running_bar(std::optional<double> x, double fraction);

    // Text shown in the middle when there is nothing to draw, e.g. "No results yet".
    void set_placeholder(std::string text);

    [[nodiscard]] bool has_data() const noexcept;

    // Draws the whole chart into a width × height (logical pixels) area of
    // `cr`. `device_scale` is the HiDPI factor for the cached layer.
    void paint(cairo_t* cr, double width, double height, const ChartTheme& theme, double device_scale = 1.0);

    // Draws without caches, for vector surfaces (SVG, PDF) and PNG export.
    void paint_uncached(cairo_t* cr, double width, double height, const ChartTheme& theme) const;

    // Where data lands for the last paint(), for tests and hit testing.
    [[nodiscard]] PlotArea last_plot_area() const noexcept;

private:
    struct State;
    std::unique_ptr<State> state_;
};

enum class ExportFormat { Png, Svg, Pdf };

// The format for a file name's extension (.png, .svg, .pdf), if any.
std::optional<ExportFormat> export_format_for(std::string_view path);

// Writes the chart to `path`; `title` goes above the graph (device and
// benchmark), so an exported picture says what it shows. Returns an empty
// string on success, else a translated message for a toast.
std::string export_chart(const Chart& chart, const std::string& path, ExportFormat format, const std::string& title,
                         double width, double height, const ChartTheme& theme);

} // namespace diskbench::client
