// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "result.hpp"

#include <cstddef>

namespace diskbench::engine {

// Receives a benchmark's output while it runs (the daemon batches it into
// D-Bus signals). Calls come from engine worker threads but never
// concurrently: the Recorder serialises them. Implementations must be quick;
// the I/O loop waits for them.
class SampleSink {
public:
    virtual ~SampleSink() = default;
    // A new series; its index is the order of declaration, starting at 0.
    virtual void series_added(std::size_t index, const SeriesInfo& info) = 0;
    virtual void point_added(std::size_t series_index, const SeriesPoint& point) = 0;
    // 0..1, never decreasing within a run.
    virtual void progress_changed(double progress) = 0;
};

} // namespace diskbench::engine
