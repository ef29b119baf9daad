// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/results/sample_sink.hpp"

#include <sdbus-c++/Types.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

namespace diskbench::service {

using Sample = sdbus::Struct<std::uint32_t, double, double>;
using SeriesDescription = sdbus::Struct<std::string, std::string, std::string, std::string>;

// Collects a running benchmark's output on the engine's thread for the bus
// thread to publish, and keeps it, so GetSamples() can replay from any
// index. Bounded: a job keeps at most `max_samples` points (the engine's
// own largest runs make about a million: a 1,000,000-read seek), and no
// batch or reply carries more than `max_per_message`. dbus-daemon drops
// a connection that sends a message over its limit (32 MiB on the system
// bus), which would end every user's jobs; a(udd) costs 24 bytes a point.
class JobSink final : public engine::SampleSink {
public:
    static constexpr std::size_t max_samples = 1'500'000;
    static constexpr std::size_t max_per_message = 262'144;
    static constexpr std::size_t max_series = 256;
    // Partial points (series "NAME.partial") are superseded by later ones,
    // so they have budgets of their own beside the final ones and never
    // take a final point's or a final series' place: past these, further
    // partial points or series are left out (not counted as dropped; the
    // final point of their bucket still comes). A job so keeps at most
    // max_samples + max_partial_samples points.
    static constexpr std::size_t max_partial_samples = max_samples / 4;
    static constexpr std::size_t max_partial_series = max_series;

    void series_added(std::size_t index, const engine::SeriesInfo& info) override;
    void point_added(std::size_t series_index, const engine::SeriesPoint& point) override;
    void progress_changed(double progress) override;

    // A series the daemon itself measures beside the engine (the drive's
    // temperature), from the bus thread. It takes the next index, after
    // the engine's series declared so far; the engine's later series get
    // the ones after it (their points are mapped). std::nullopt when the
    // job has as many series as it keeps.
    std::optional<std::size_t> add_daemon_series(const engine::SeriesInfo& info);
    void add_daemon_point(std::size_t index, const engine::SeriesPoint& point);

    // What the bus thread takes at each flush.
    struct Batch {
        std::uint64_t first_index = 0;
        std::vector<Sample> samples;
        bool series_changed = false;
        bool progress_changed = false;
    };
    // At most max_per_message samples after the last batch; marks them as
    // published.
    Batch take_batch();
    // Whether samples are left for another batch.
    [[nodiscard]] bool unpublished() const;

    [[nodiscard]] std::vector<SeriesDescription> series() const;
    [[nodiscard]] std::size_t series_count() const;
    [[nodiscard]] double progress() const;
    // Published samples only, so a client that calls GetSamples() and then
    // listens for Samples signals sees every point exactly once.
    [[nodiscard]] std::uint64_t published() const;
    // Published samples from `from` on, at most `max_count` (and at most
    // max_per_message); false when `from` is past the end.
    bool published_from(std::uint64_t from, std::size_t max_count, std::vector<Sample>& out) const;
    // Points and series the run made beyond the caps, which were not kept.
    [[nodiscard]] std::uint64_t dropped_samples() const;
    [[nodiscard]] std::uint64_t dropped_series() const;

private:
    std::optional<std::size_t> add_series_locked(const engine::SeriesInfo& info);
    void add_point_locked(std::size_t index, const engine::SeriesPoint& point);

    mutable std::mutex mutex_;
    std::vector<SeriesDescription> series_;
    std::vector<bool> series_partial_; // by our index: a "NAME.partial" series
    std::size_t partial_samples_ = 0;
    std::size_t partial_series_ = 0;
    // The engine's series index -> ours (nullopt: not kept).
    std::vector<std::optional<std::size_t>> engine_series_;
    std::vector<bool> engine_series_partial_; // by the engine's index
    std::vector<Sample> samples_;
    std::uint64_t published_ = 0;
    std::uint64_t dropped_samples_ = 0;
    std::uint64_t dropped_series_ = 0;
    double progress_ = 0;
    bool series_dirty_ = false;
    bool progress_dirty_ = false;
};

} // namespace diskbench::service
