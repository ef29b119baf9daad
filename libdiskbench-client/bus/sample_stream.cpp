// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus/sample_stream.hpp"

#include <algorithm>

namespace diskbench::client {

void SampleStream::declare_series(std::span<const SeriesDeclaration> series)
{
    if (series.size() == target_.size() || series.size() > max_series)
        return;
    target_.assign(series.size(), 0);
    partial_series_.assign(series.size(), false);
    for (std::size_t i = 0; i < series.size(); ++i) {
        target_[i] = static_cast<std::uint32_t>(i);
        if (!contract::is_partial_series(series[i].name))
            continue;
        partial_series_[i] = true;
        const std::string_view final_name = contract::final_series_name(series[i].name);
        // A NAME.partial without NAME (not declared yet, or a daemon that
        // sends none) keeps its own list, with the same replacing rule.
        const auto found = std::find_if(series.begin(), series.end(),
                                        [&](const SeriesDeclaration& s) { return s.name == final_name; });
        if (found != series.end())
            target_[i] = static_cast<std::uint32_t>(found - series.begin());
    }
}

void SampleStream::add(std::uint32_t series, SeriesPoint point, Points& points)
{
    const bool partial = series < partial_series_.size() && partial_series_[series];
    if (series < target_.size())
        series = target_[series];
    if (points.size() <= series)
        points.resize(series + 1);
    if (partial_tail_.size() <= series)
        partial_tail_.resize(series + 1, false);
    std::vector<SeriesPoint>& list = points[series];
    if (partial_tail_[series] && !list.empty() && list.back().x == point.x)
        list.back() = point;
    else
        list.push_back(point);
    partial_tail_[series] = partial;
}

bool SampleStream::end(Points& points)
{
    ended_ = true;
    bool removed = false;
    for (std::size_t i = 0; i < partial_tail_.size(); ++i) {
        if (!partial_tail_[i])
            continue;
        partial_tail_[i] = false;
        if (i < points.size() && !points[i].empty()) {
            points[i].pop_back();
            removed = true;
        }
    }
    return removed;
}

std::uint64_t SampleStream::begin_catch_up() noexcept
{
    catching_up_ = true;
    return next_;
}

SampleStream::Signal SampleStream::on_signal(std::uint64_t first_index, std::span<const IndexedSample> samples,
                                             Points& points)
{
    if (catching_up_)
        return Signal::Dropped;
    if (first_index > next_)
        return Signal::NeedCatchUp;
    append(first_index, samples, points);
    return Signal::Appended;
}

bool SampleStream::on_reply(std::uint64_t from_index, std::span<const IndexedSample> samples, Points& points)
{
    catching_up_ = false;
    if (from_index > next_)
        return false; // cannot happen for our own requests; never leave a hole
    return append(from_index, samples, points);
}

bool SampleStream::append(std::uint64_t first_index, std::span<const IndexedSample> samples, Points& points)
{
    bool added = false;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (first_index + i < next_)
            continue; // already have it
        const IndexedSample& sample = samples[i];
        if (sample.series < max_series) {
            add(sample.series, { sample.x, sample.y }, points);
            added = true;
        }
        next_ = first_index + i + 1;
    }
    if (ended_)
        end(points);
    return added;
}

} // namespace diskbench::client
