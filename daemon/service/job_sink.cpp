// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_sink.hpp"

#include <algorithm>

namespace diskbench::service {

std::optional<std::size_t> JobSink::add_series_locked(const engine::SeriesInfo& info)
{
    const bool partial = engine::is_partial_series(info.name);
    if (partial) {
        if (partial_series_ >= max_partial_series)
            return std::nullopt; // its points are left out, as past max_partial_samples
        ++partial_series_;
    } else if (series_.size() - partial_series_ >= max_series) {
        ++dropped_series_;
        return std::nullopt;
    }
    series_.emplace_back(info.name, info.x_unit, info.y_unit, std::string(engine::style_name(info.style)));
    series_partial_.push_back(partial);
    series_dirty_ = true;
    return series_.size() - 1;
}

void JobSink::add_point_locked(std::size_t index, const engine::SeriesPoint& point)
{
    if (series_partial_[index]) {
        if (partial_samples_ >= max_partial_samples)
            return;
        ++partial_samples_;
    } else if (samples_.size() - partial_samples_ >= max_samples) {
        ++dropped_samples_;
        return;
    }
    samples_.emplace_back(static_cast<std::uint32_t>(index), point.x, point.y);
}

void JobSink::series_added(std::size_t, const engine::SeriesInfo& info)
{
    std::lock_guard lock(mutex_);
    // The engine numbers its series in the order it declares them.
    engine_series_.push_back(add_series_locked(info));
    engine_series_partial_.push_back(engine::is_partial_series(info.name));
}

void JobSink::point_added(std::size_t series_index, const engine::SeriesPoint& point)
{
    std::lock_guard lock(mutex_);
    // A point of a series that was not kept names no series a client knows.
    if (series_index >= engine_series_.size() || !engine_series_[series_index]) {
        // A partial series past its budget loses nothing a result holds.
        if (series_index >= engine_series_.size() || !engine_series_partial_[series_index])
            ++dropped_samples_;
        return;
    }
    add_point_locked(*engine_series_[series_index], point);
}

std::optional<std::size_t> JobSink::add_daemon_series(const engine::SeriesInfo& info)
{
    std::lock_guard lock(mutex_);
    return add_series_locked(info);
}

void JobSink::add_daemon_point(std::size_t index, const engine::SeriesPoint& point)
{
    std::lock_guard lock(mutex_);
    if (index < series_.size())
        add_point_locked(index, point);
}

void JobSink::progress_changed(double progress)
{
    std::lock_guard lock(mutex_);
    progress_ = progress;
    progress_dirty_ = true;
}

JobSink::Batch JobSink::take_batch()
{
    std::lock_guard lock(mutex_);
    Batch batch;
    batch.first_index = published_;
    const std::size_t count = std::min<std::size_t>(samples_.size() - published_, max_per_message);
    const auto first = samples_.begin() + static_cast<std::ptrdiff_t>(published_);
    batch.samples.assign(first, first + static_cast<std::ptrdiff_t>(count));
    published_ += count;
    batch.series_changed = std::exchange(series_dirty_, false);
    batch.progress_changed = std::exchange(progress_dirty_, false);
    return batch;
}

bool JobSink::unpublished() const
{
    std::lock_guard lock(mutex_);
    return published_ < samples_.size();
}

std::vector<SeriesDescription> JobSink::series() const
{
    std::lock_guard lock(mutex_);
    return series_;
}

std::size_t JobSink::series_count() const
{
    std::lock_guard lock(mutex_);
    return series_.size();
}

double JobSink::progress() const
{
    std::lock_guard lock(mutex_);
    return progress_;
}

std::uint64_t JobSink::published() const
{
    std::lock_guard lock(mutex_);
    return published_;
}

bool JobSink::published_from(std::uint64_t from, std::size_t max_count, std::vector<Sample>& out) const
{
    std::lock_guard lock(mutex_);
    if (from > published_)
        return false;
    const std::size_t count = std::min<std::uint64_t>({ published_ - from, max_count, max_per_message });
    const auto first = samples_.begin() + static_cast<std::ptrdiff_t>(from);
    out.assign(first, first + static_cast<std::ptrdiff_t>(count));
    return true;
}

std::uint64_t JobSink::dropped_samples() const
{
    std::lock_guard lock(mutex_);
    return dropped_samples_;
}

std::uint64_t JobSink::dropped_series() const
{
    std::lock_guard lock(mutex_);
    return dropped_series_;
}

} // namespace diskbench::service
