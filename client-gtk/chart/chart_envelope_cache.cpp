// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_envelope_cache.hpp"

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

// The columns envelope_for() uses: one per (started) pixel.
std::size_t column_count(const PlotArea& area) noexcept
{
    return static_cast<std::size_t>(std::ceil(area.width));
}

} // namespace

void EnvelopeCache::clear() noexcept
{
    valid_ = false;
    consumed_ = 0;
    columns_.clear();
}

bool EnvelopeCache::matches(const PlotArea& area, std::size_t count) const noexcept
{
    return valid_ && x_low_ == area.x_low && x_high_ == area.x_high && column_count_ == column_count(area)
        && consumed_ == count;
}

void EnvelopeCache::update(std::span<const SeriesPoint> points, bool sorted, const PlotArea& area,
                           ChartCacheStats& stats)
{
    // An area envelope_for() draws nothing in has no columns to keep.
    if (!(area.width > 0 && area.height > 0 && area.x_high > area.x_low && area.y_high > area.y_low)) {
        clear();
        return;
    }
    const std::size_t columns = column_count(area);
    if (!valid_ || x_low_ != area.x_low || x_high_ != area.x_high || column_count_ != columns
        || points.size() < consumed_ || !sorted) {
        columns_ = envelope_for(area, points);
        valid_ = true;
        x_low_ = area.x_low;
        x_high_ = area.x_high;
        column_count_ = columns;
        consumed_ = points.size();
        ++stats.envelope_rebuilds;
        return;
    }
    if (points.size() == consumed_)
        return;

    // The same arithmetic as envelope(), so the kept columns are bit for bit
    // what a full recomputation would give (tests compare pixels).
    const double x_low = area.x_low;
    const double x_high = area.x_high;
    const double width = (x_high - x_low) / static_cast<double>(columns);
    auto column_of = [&](double x) { return std::min(columns - 1, static_cast<std::size_t>((x - x_low) / width)); };

    const auto old_end = points.begin() + static_cast<std::ptrdiff_t>(consumed_);
    const auto first_new
        = std::partition_point(old_end, points.end(), [&](const SeriesPoint& p) { return p.x < x_low; });
    consumed_ = points.size();
    if (first_new == points.end() || first_new->x > x_high)
        return; // nothing new inside the domain

    // The last old column may get more points: recompute it and all after.
    const std::size_t column = column_of(first_new->x);
    const auto start = std::partition_point(points.begin(), first_new, [&](const SeriesPoint& p) {
        return p.x < x_low || column_of(p.x) < column;
    });
    const double centre = x_low + (static_cast<double>(column) + 0.5) * width;
    while (!columns_.empty() && columns_.back().x >= centre)
        columns_.pop_back();
    const std::vector<EnvelopeColumn> tail
        = envelope(points.subspan(static_cast<std::size_t>(start - points.begin())), x_low, x_high, columns);
    columns_.insert(columns_.end(), tail.begin(), tail.end());
    ++stats.envelope_updates;
}

} // namespace diskbench::client
