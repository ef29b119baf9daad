// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart.hpp"

#include <span>
#include <vector>

namespace diskbench::client {

// The envelope_for() columns of one long line series, kept between frames.
// Points appended at increasing x change only the columns from the last old
// one onwards, so only those are recomputed: a frame while a surface map
// streams costs the new points, not the million before them. A new plot
// width or x domain, or points not in x order, recompute everything.
class EnvelopeCache {
public:
    // Brings the columns up to date with `points` (which only ever grew
    // since the last call, else call clear() first) for `area`.
    void update(std::span<const SeriesPoint> points, bool sorted, const PlotArea& area, ChartCacheStats& stats);
    // The points were replaced: the next update() starts over.
    void clear() noexcept;
    // Whether columns() are envelope_for(area, the first `count` points).
    [[nodiscard]] bool matches(const PlotArea& area, std::size_t count) const noexcept;
    [[nodiscard]] std::span<const EnvelopeColumn> columns() const noexcept { return columns_; }

private:
    bool valid_ = false;
    double x_low_ = 0, x_high_ = 0;
    std::size_t column_count_ = 0;
    std::size_t consumed_ = 0; // points the columns include
    std::vector<EnvelopeColumn> columns_;
};

} // namespace diskbench::client
