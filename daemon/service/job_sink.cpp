// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_sink.hpp"

#include <algorithm>

namespace diskbench::service {

void JobSink::series_added(std::size_t, const engine::SeriesInfo& info)
{
    std::lock_guard lock(mutex_);
    if (series_.size() >= max_series) {
        ++dropped_series_;
        return;
    }
    series_.emplace_back(info.name, info.x_unit, info.y_unit, std::string(engine::style_name(info.style)));
    series_dirty_ = true;
}

void JobSink::point_added(std::size_t series_index, const engine::SeriesPoint& point)
{
    std::lock_guard lock(mutex_);
    // A point of a series that was not kept names no series a client knows.
    if (samples_.size() >= max_samples || series_index >= series_.size()) {
        ++dropped_samples_;
        return;
    }
    samples_.emplace_back(static_cast<std::uint32_t>(series_index), point.x, point.y);
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
