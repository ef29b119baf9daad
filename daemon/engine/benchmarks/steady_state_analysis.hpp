// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a long sequential write's throughput over time says: how fast the
// device wrote at first (its SLC cache or DRAM), whether and where it fell
// off a cliff, and whether it then settled. Pure arithmetic on the series,
// so it is tested on made-up series.
//
// Steady state follows SNIA's Solid State Storage Performance Test
// Specification (PTS 2.0.2, 2.1.24): over the last `windows` measurement
// windows, every value lies within ±tolerance of their mean (the PTS's
// "data excursion" of at most 20 % of the average, as max - min), and the
// least-squares line through them changes by at most max_slope of the mean
// across the span (the PTS's "slope excursion" of at most 10 %).

#include <cstddef>
#include <cstdint>
#include <span>

namespace diskbench::engine::benchmarks {

struct ThroughputWindow {
    double end_s = 0;                // seconds from the start of the run
    double mb_s = 0;                 // over this window
    std::uint64_t bytes_before = 0;  // written before the window started
};

struct SteadyStateCriteria {
    std::size_t windows = 5;  // the measurement window, in windows
    double tolerance = 0.10;  // each value within ±10 % of the mean
    double max_slope = 0.10;  // fitted change across the windows, of the mean
    // A cliff: the end is at least this much slower than the start.
    double cliff_drop = 0.25;
    // ... and at least this share of the windows from the cliff on are
    // below the midpoint of the two levels.
    double stays_down = 0.8;
};

struct SustainedAnalysis {
    double burst_mb_s = 0;   // before the cliff; the first windows when there is none
    double steady_mb_s = 0;  // mean of the last `windows` (of all, when fewer)
    bool steady_state = false;
    bool cliff = false;
    std::size_t cliff_window = 0;    // first window below the cliff
    std::uint64_t cliff_at_bytes = 0; // its bytes_before; 0 without a cliff
    double cliff_at_s = 0;            // when the window before it ended
};

// The last criteria.windows values as SNIA's steady-state check sees them:
// their mean, their data excursion (max - min) and the fitted line's change
// across them, both as fractions of the mean, and whether both are within
// the limits. With fewer values than criteria.windows: nothing measured.
struct SteadyWindow {
    bool measured = false;
    double mean = 0;
    double excursion = 0; // (max - min) / mean
    double slope = 0;     // |fitted change across the window| / mean
    bool steady = false;
};
SteadyWindow measure_window(std::span<const double> values, const SteadyStateCriteria& criteria = {});

// True when the values meet the criteria's excursion and slope limits
// (needs at least criteria.windows values; looks at the last of them).
bool is_steady(std::span<const double> values, const SteadyStateCriteria& criteria = {});

// The burst level is the median of the first `windows` windows, the steady
// level the mean of the last `windows`. A cliff is reported when the steady
// level is at least cliff_drop below the burst level and the series stays
// below the midpoint of the two levels from the first window below it (the
// cliff) on, but for a stays_down share.
SustainedAnalysis analyse_sustained(std::span<const ThroughputWindow> series, const SteadyStateCriteria& criteria = {});

} // namespace diskbench::engine::benchmarks
