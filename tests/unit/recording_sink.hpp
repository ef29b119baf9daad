// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/sample_sink.hpp"

#include <atomic>
#include <vector>

namespace diskbench::testing {

// Keeps what a benchmark streamed, to compare with the Result it returned.
class RecordingSink final : public engine::SampleSink {
public:
    void series_added(std::size_t index, const engine::SeriesInfo& info) override
    {
        series_order_ok &= index == series.size();
        series.push_back(info);
        points.emplace_back();
    }
    void point_added(std::size_t series_index, const engine::SeriesPoint& point) override
    {
        points.at(series_index).push_back(point);
        point_count.fetch_add(1);
    }
    void progress_changed(double value) override
    {
        progress_monotonic &= value >= last_progress;
        last_progress = value;
        progress_calls.fetch_add(1);
        if (value > 0)
            progressed.store(true);
    }

    std::vector<engine::SeriesInfo> series;
    std::vector<std::vector<engine::SeriesPoint>> points;
    std::atomic<std::size_t> point_count { 0 };
    double last_progress = 0;
    // Atomic: a test's thread reads them while the run goes on.
    std::atomic<std::size_t> progress_calls { 0 };
    std::atomic<bool> progressed { false };
    bool progress_monotonic = true;
    bool series_order_ok = true;
};

} // namespace diskbench::testing
