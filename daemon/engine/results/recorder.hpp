// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "result.hpp"
#include "sample_sink.hpp"

#include <cstddef>
#include <mutex>
#include <string>

namespace diskbench::engine {

// The benchmarks' single way to publish output: stores it in the Result and
// forwards it to the sink under one lock, so the sink sees calls in order and
// never concurrently, and the Result always matches what the sink was told.
class Recorder {
public:
    Recorder(Result& result, SampleSink* sink) : result_(result), sink_(sink) {}

    std::size_t add_series(SeriesInfo info);
    // A point of a partial series (is_partial_series) reaches the sink only.
    void add_point(std::size_t series_index, SeriesPoint point);
    // Forwarded when it moved by at least 0.1 % (or reached 1), so per-I/O
    // calls stay cheap for the sink.
    void set_progress(double progress);
    // A catalogue message (contract/messages.hpp): see add_warning().
    void warn(contract::Message message);
    void note(contract::Message message);

private:
    std::mutex mutex_;
    Result& result_;
    SampleSink* sink_;
    double progress_ = 0;
    double forwarded_progress_ = -1;
};

} // namespace diskbench::engine
