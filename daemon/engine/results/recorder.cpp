// SPDX-License-Identifier: GPL-3.0-or-later
#include "recorder.hpp"

#include <algorithm>

namespace diskbench::engine {

std::size_t Recorder::add_series(SeriesInfo info)
{
    std::lock_guard lock(mutex_);
    result_.series.push_back(Series { std::move(info), {} });
    const std::size_t index = result_.series.size() - 1;
    if (sink_)
        sink_->series_added(index, result_.series.back().info);
    return index;
}

void Recorder::add_point(std::size_t series_index, SeriesPoint point)
{
    std::lock_guard lock(mutex_);
    Series& series = result_.series.at(series_index);
    // A partial point is for watchers only (see partial_series_suffix).
    if (!is_partial_series(series.info.name))
        series.points.push_back(point);
    if (sink_)
        sink_->point_added(series_index, point);
}

void Recorder::set_progress(double progress)
{
    std::lock_guard lock(mutex_);
    progress_ = std::clamp(std::max(progress, progress_), 0.0, 1.0);
    if (sink_ && (progress_ - forwarded_progress_ >= 0.001 || (progress_ >= 1.0 && forwarded_progress_ < 1.0))) {
        forwarded_progress_ = progress_;
        sink_->progress_changed(progress_);
    }
}

void Recorder::warn(contract::Message message)
{
    std::lock_guard lock(mutex_);
    add_warning(result_, std::move(message));
}

void Recorder::note(contract::Message message)
{
    std::lock_guard lock(mutex_);
    add_note(result_, std::move(message));
}

} // namespace diskbench::engine
