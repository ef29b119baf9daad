// SPDX-License-Identifier: GPL-3.0-or-later
// The legend: a coloured square and the series' label per entry, in rows
// right-aligned above the plot, so it never covers data.
#include "chart_layout.hpp"

#include <algorithm>
#include <cmath>

namespace diskbench::client {

std::vector<LegendEntry> layout_legend(std::span<const LegendItem> items, double width, double top, double font_size,
                                       const MeasureText& measure, double& height)
{
    height = 0;
    std::vector<LegendEntry> entries;
    if (items.empty())
        return entries;
    const double pad = std::round(font_size * 0.5);
    const double swatch = std::round(font_size * 0.9);
    const double entry_gap = std::round(font_size * 1.5);
    const double line = measure("Ag").height;
    const double available = width - 2 * pad;

    // Fill rows left to right, then shift each row to the right edge.
    std::size_t row_start = 0;
    double x = 0;
    double y = top;
    auto close_row = [&](std::size_t end) {
        // A row wider than the chart (one very long label) starts at the left edge.
        const double shift = std::max(pad, pad + available - (x - entry_gap));
        for (std::size_t i = row_start; i < end; ++i) {
            entries[i].swatch_x += shift;
            entries[i].text_x += shift;
        }
        row_start = end;
        x = 0;
        y += line;
    };
    for (const LegendItem& item : items) {
        const double text_width = measure(item.text).width;
        const double entry_width = swatch + pad + text_width;
        if (x > 0 && x + entry_width > available)
            close_row(entries.size());
        entries.push_back(LegendEntry { item, x, std::round(y + (line - swatch) / 2), swatch, x + swatch + pad, y });
        x += entry_width + entry_gap;
    }
    close_row(entries.size());
    height = y - top;
    return entries;
}

} // namespace diskbench::client
