// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"

#include <cstdint>
#include <string>

namespace diskbench::client {

// "42 s", "3 min 20 s", "2 h 5 min" (translated); absurd values are clamped.
std::string duration_text(double seconds);

// The headline figures of a finished device run, e.g.
// "1 234 MB/s  ·  p50 85 µs  ·  p99 1.0 ms  ·  p99.9 2.1 ms"; Seek's leads
// with "average access time 0.08 ms".
std::string device_summary_text(const std::string& kind, const SavedValueMap& summary);

// What the progress bar under a page's graph shows for a job.
struct JobProgress {
    double fraction = 0; // 0..1
    std::string text;    // "42 %  ·  about 3 min 20 s left", "Finished in 12 s", ...
    bool pulse = false;  // running with nothing to measure progress by yet
};
// `now_us`: the wall clock, microseconds since the Unix epoch (as the
// daemon's StartedAt), for the time left.
JobProgress job_progress(const JobEntry& job, std::int64_t now_us);

// How many bars a running bar chart will have and where the one being
// measured goes (its x), for the running bar that fills with the run's
// progress.
struct RunningBar {
    double bars = 0; // all bars of the run
    double next = 0; // x of the bar being measured (an index on a Categories axis)
};
// A power-of-two block-size sweep: `done` bars measured so far, the last at
// `last_x`; the smallest size is min_block, or `logical_block` when the
// parameters do not say.
RunningBar sweep_running_bar(const SavedValueMap& parameters, std::uint32_t logical_block, std::size_t done,
                             double last_x);

} // namespace diskbench::client
