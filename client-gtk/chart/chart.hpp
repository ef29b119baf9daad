// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "envelope.hpp"
#include "series_painter.hpp"
#include "text/value_format.hpp"

#include <cairo.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
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
    // that grows live does not rescale on every sample. Unset: from the data,
    // widened to round ticks (so it changes only when the data passes one).
    std::optional<double> x_low, x_high;
    // The y axis always starts at 0 for throughput/IOPS; it grows with the data.
};

// One series to draw. `band_min`/`band_max` (optional, same x as `points`)
// draw a translucent band around a line, e.g. the surface map's per-bucket
// min and max around its mean.
struct ChartSeries {
    std::string label; // legend text, already translated
    std::vector<SeriesPoint> points;
    std::vector<SeriesPoint> band_min, band_max;
    // One of several passes, drawn thin and translucent in the first
    // series' colour under the others (line graphs only).
    bool faint = false;
    // A reference series: which of the results compared with (0 to 3) it
    // is of, so each result has its colour (ChartTheme::overlay_colour).
    std::size_t overlay = 0;
};

// Colours and sizes. light()/dark() follow the GNOME palette; current series
// get blues/greens/purples/reds (index = series position, for QD curves per
// thread count), the reference gets orange, so both stay readable in light
// and dark mode and for common colour-vision deficiencies.
struct ChartTheme {
    Rgba background, foreground, grid, reference;
    // The results compared with, each its own colour apart from the
    // current series': the first is `reference` (orange), then brown,
    // near-black (near-white when dark) and teal; all at least 3:1 on the
    // background.
    std::vector<Rgba> overlays;
    std::vector<Rgba> current; // at least 4
    // The series on the right-hand axis (the drive's temperature), drawn
    // dashed: a red apart from the current blues so it never reads as speed.
    Rgba secondary;
    double font_size = 11;     // in logical pixels

    static ChartTheme light();
    static ChartTheme dark();
    // Wraps around past the end, so any number of series gets a colour.
    [[nodiscard]] Rgba current_colour(std::size_t index) const;
    // Whether series `index` has a colour an earlier one has (past the
    // palette): drawn dotted, its legend swatch hollow.
    [[nodiscard]] bool second_round(std::size_t index) const noexcept
    {
        return !current.empty() && index >= current.size();
    }
    [[nodiscard]] Rgba overlay_colour(std::size_t index) const;
    // Same colours and size: the cached layer can be kept.
    [[nodiscard]] bool operator==(const ChartTheme& other) const noexcept;
};

// WCAG 2 contrast ratio of two opaque colours (1 .. 21), from their relative
// luminance; alpha is ignored. Graph lines need at least 3:1 (WCAG 1.4.11).
double contrast_ratio(Rgba a, Rgba b) noexcept;

// How often Chart::paint() had to redo costly work, so tests and the
// benchmark can tell a kept cache from a rebuilt one.
struct ChartCacheStats {
    std::size_t layer_builds = 0;      // background/axes/labels layer drawn anew
    std::size_t envelope_rebuilds = 0; // a long series' envelope computed from all its points
    std::size_t envelope_updates = 0;  // ... or only its last columns, after an append
};

// A chart's data and its drawing. Keeps what is costly between frames:
// the background/axes/labels layer as an image surface (rebuilt only when
// size, scale, theme or the axis ranges change) and the per-pixel envelopes
// of long line series (updated as points are appended), so a redraw while
// samples stream costs milliseconds even with a million points. (Lines on a
// Log2 axis, the QD curves of a few points each, are drawn from their points.)
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
    void append_points(std::size_t index, std::span<const SeriesPoint> points);
    void set_current_label(std::size_t index, std::string label);
    // Optional: room for `count` points in series `index` (created empty up
    // to `index` if needed), when a run's size is known up front (a surface
    // map's buckets). Without it, the append that outgrows the series'
    // storage copies all of it: one ~10 ms frame at a million points.
    void reserve_points(std::size_t index, std::size_t count);
    // Grows the band around series `index` (see ChartSeries), as a surface
    // map's per-bucket min and max arrive.
    void append_band(std::size_t index, std::span<const SeriesPoint> band_min, std::span<const SeriesPoint> band_max);
    // Keeps only the first `count` points (or band points) of series `index`,
    // so a partial point at the end (a surface map's bucket still filling)
    // can be replaced by the next one: drop it, append the new one. The
    // series' kept envelopes are computed anew at the next paint.
    void truncate_points(std::size_t index, std::size_t count);
    void truncate_band(std::size_t index, std::size_t min_count, std::size_t max_count);
    void clear_current();

    // The result to compare with (drawn under the current, in the reference colour).
    void set_reference(std::vector<ChartSeries> series);
    void clear_reference();

    // A series against a second y axis on the right, in its own `unit` (the
    // drive's temperature in °C over a line graph), dashed in the theme's
    // secondary colour, with a legend entry. Its x must already be in the
    // chart's x units; line charts on a linear x axis only (others ignore it).
    void set_secondary(ChartSeries series, Unit unit);
    void clear_secondary();

    // Bar charts: the bar being measured right now (x of the next bar) and
    // how far along it is (0..1), drawn in the first current series' place
    // as a full-height outline whose inside fills up from the bottom, so it
    // reads as progress and never as a value. std::nullopt removes it.
    void set_running_bar(std::optional<double> x, double fraction);

    // Text shown in the middle when there is nothing to draw, e.g. "No results yet".
    void set_placeholder(std::string text);

    // Some current or reference point exists (a running bar alone is no data,
    // but it is drawn, with axes, instead of the placeholder).
    [[nodiscard]] bool has_data() const noexcept;

    // Draws the whole chart into a width × height (logical pixels) area of
    // `cr`. `device_scale` is the HiDPI factor for the cached layer.
    void paint(cairo_t* cr, double width, double height, const ChartTheme& theme, double device_scale = 1.0);

    // Draws without caches, for vector surfaces (SVG, PDF) and PNG export.
    void paint_uncached(cairo_t* cr, double width, double height, const ChartTheme& theme) const;

    // Where data lands for the last paint(), for tests and hit testing.
    // On a Log2 axis x_low/x_high are log2 of the values (512 B -> 9), on a
    // Categories axis category indices (the first bar is at 0).
    [[nodiscard]] PlotArea last_plot_area() const noexcept;
    // The right-hand axis of the last paint(): its range, or nullopt when none was drawn.
    [[nodiscard]] std::optional<std::pair<double, double>> last_secondary_range() const noexcept;

    [[nodiscard]] ChartCacheStats cache_stats() const noexcept;

private:
    struct State;
    std::unique_ptr<State> state_;
};

enum class ExportFormat { Png, Svg, Pdf };

// The format for a file name's extension (.png, .svg, .pdf), if any.
std::optional<ExportFormat> export_format_for(std::string_view path);

// Writes the chart to `path`; `title` goes above the graph (device and
// benchmark), so an exported picture says what it shows. The picture is
// width × height (16 .. 8192) logical pixels with the title in its top part;
// a PNG has twice as many pixels each way. The file appears whole or not at
// all (written next to `path`, then renamed). Returns an empty string on
// success, else a translated message for a toast.
std::string export_chart(const Chart& chart, const std::string& path, ExportFormat format, const std::string& title,
                         double width, double height, const ChartTheme& theme);

} // namespace diskbench::client
