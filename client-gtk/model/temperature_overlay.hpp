// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "benchmark_pages.hpp"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace diskbench::client {

// A series of a run as the overlay needs it (a SavedSeries, or a live job's
// declaration with its points).
struct OverlaySource {
    std::string_view name, x_unit, y_unit;
    std::span<const SeriesPoint> points;
};
std::vector<OverlaySource> overlay_sources(const std::vector<SavedSeries>& series);

// The drive's temperature (the daemon's "temperature" series: °C against
// seconds since the start) laid over a view's line graph, for the chart's
// right-hand axis, with x in the graph's own units:
//   - graphs over time (x in "s": sustained write, mixed load): as it is;
//   - graphs over the position read (x in "B": sequential read, surface
//     map): each reading goes to the position the read had reached then,
//     found by adding up the time each stretch took at its measured speed
//     (the line's MB/s), so a slowdown shows under the heat that came with it;
//   - anything else (bars, dots, QD curves, passes or several lines over the
//     same positions, where a time has no single place): nullopt, and the
//     page shows the start -> max text only.
// Readings after the last measured position are left out until it moves on.
std::optional<ChartSeries> temperature_overlay(const PageView& view, std::span<const OverlaySource> series);

// Seconds since the start -> position, from a throughput line (x: byte
// position where each stretch starts, as sequential and surface send it,
// y: MB/s over it); the last stretch is taken as long as the one before.
// Readings after the line's end give nothing.
std::vector<SeriesPoint> temperature_at_positions(std::span<const SeriesPoint> temperature,
                                                  std::span<const SeriesPoint> throughput);

} // namespace diskbench::client
