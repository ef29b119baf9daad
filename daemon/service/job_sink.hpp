// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/sample_sink.hpp"

#include <sdbus-c++/Types.h>

#include <cstdint>
#include <mutex>
#include <vector>

namespace diskbench::service {

using Sample = sdbus::Struct<std::uint32_t, double, double>;
using SeriesDescription = sdbus::Struct<std::string, std::string, std::string, std::string>;

// Collects a running benchmark's output on the engine's thread for the bus
// thread to publish. Everything is kept (the engine bounds how many points a
// run makes), so GetSamples() can replay from any index.
class JobSink final : public engine::SampleSink {
public:
    void series_added(std::size_t index, const engine::SeriesInfo& info) override;
    void point_added(std::size_t series_index, const engine::SeriesPoint& point) override;
    void progress_changed(double progress) override;

    // What the bus thread takes at each flush.
    struct Batch {
        std::uint64_t first_index = 0;
        std::vector<Sample> samples;
        bool series_changed = false;
        bool progress_changed = false;
    };
    // The samples after the last batch; marks them as published.
    Batch take_batch();

    [[nodiscard]] std::vector<SeriesDescription> series() const;
    [[nodiscard]] double progress() const;
    // Published samples only, so a client that calls GetSamples() and then
    // listens for Samples signals sees every point exactly once.
    [[nodiscard]] std::uint64_t published() const;
    // Published samples from `from` on; false when `from` is past the end.
    bool published_from(std::uint64_t from, std::vector<Sample>& out) const;

private:
    mutable std::mutex mutex_;
    std::vector<SeriesDescription> series_;
    std::vector<Sample> samples_;
    std::uint64_t published_ = 0;
    double progress_ = 0;
    bool series_dirty_ = false;
    bool progress_dirty_ = false;
};

} // namespace diskbench::service
