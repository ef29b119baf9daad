// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart_envelope_cache.hpp"
#include "chart_layout.hpp"

#include <cairo.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace diskbench::client {

// A series as a chart keeps it: the points plus what is costly to find
// again on every frame (its extent, whether x only grows, its envelope).
struct StoredSeries {
    ChartSeries series;
    DataExtent extent;
    bool sorted = true; // points in x order: the envelope may be updated in place
    EnvelopeCache envelope;
    // The band's per-column extremes, kept like the line's envelope.
    bool band_sorted = true;
    EnvelopeCache band_low, band_high;

    StoredSeries() = default;
    explicit StoredSeries(ChartSeries from);
    void append(std::span<const SeriesPoint> points);
    void append_band(std::span<const SeriesPoint> lower, std::span<const SeriesPoint> upper);
    // Drop points past `count`; the envelopes and the extent start over.
    void truncate(std::size_t count);
    void truncate_band(std::size_t min_count, std::size_t max_count);
    void recompute_extent() noexcept;
};

// Everything a chart shows; Chart adds the caches around it.
struct ChartData {
    ChartSpec spec;
    std::vector<StoredSeries> current, reference;
    std::optional<double> running_x;
    double running_fraction = 0;
    std::string placeholder;
    // The series on the right-hand axis (Chart::set_secondary()).
    std::optional<StoredSeries> secondary;
    Unit secondary_unit = Unit::Plain;

    [[nodiscard]] bool has_points() const noexcept;
    // Whether the secondary series is drawn: it has points, and the chart is
    // a line graph on a linear x axis (bars and dots have no time to follow).
    [[nodiscard]] bool shows_secondary() const noexcept;
    [[nodiscard]] LayoutInput layout_input(double width, double height, double font_size) const;
    // Whether paint_chart_data() would draw `series` from its envelope.
    [[nodiscard]] bool uses_envelope(const StoredSeries& series, const PlotArea& area) const noexcept;
    // Whether it would draw the series' band from its kept band columns.
    [[nodiscard]] bool uses_band_envelope(const StoredSeries& series, const PlotArea& area) const noexcept;
};

// Draws the data over a background painted for `frame`: reference under
// current. With `kept_envelopes`, long line series are drawn from their
// EnvelopeCache (which must match the frame, see Chart::paint()); without,
// from their points, as an export does.
void paint_chart_data(cairo_t* cr, const ChartData& data, const ChartFrame& frame, const ChartTheme& theme,
                      bool kept_envelopes);

} // namespace diskbench::client
