// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_sink.hpp"

namespace diskbench::service {

void JobSink::series_added(std::size_t, const engine::SeriesInfo& info)
{
    std::lock_guard lock(mutex_);
    series_.emplace_back(info.name, info.x_unit, info.y_unit, std::string(engine::style_name(info.style)));
    series_dirty_ = true;
}

void JobSink::point_added(std::size_t series_index, const engine::SeriesPoint& point)
{
    std::lock_guard lock(mutex_);
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
    batch.samples.assign(samples_.begin() + static_cast<std::ptrdiff_t>(published_), samples_.end());
    published_ = samples_.size();
    batch.series_changed = std::exchange(series_dirty_, false);
    batch.progress_changed = std::exchange(progress_dirty_, false);
    return batch;
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

bool JobSink::published_from(std::uint64_t from, std::vector<Sample>& out) const
{
    std::lock_guard lock(mutex_);
    if (from > published_)
        return false;
    out.assign(samples_.begin() + static_cast<std::ptrdiff_t>(from),
               samples_.begin() + static_cast<std::ptrdiff_t>(published_));
    return true;
}

} // namespace diskbench::service
