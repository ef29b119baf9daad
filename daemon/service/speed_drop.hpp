// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Did a drop in speed come with heat? SSD reviews tell thermal throttling
// (the controller slows itself down at its warning temperature) from an SLC
// cache cliff (the fast cache is full; the drive is cool) by watching the
// temperature; the job has both the speed (the engine's "throughput"
// series) and the drive's temperature (sampled by the daemon), so it can
// say which.

#include "../engine/results/result.hpp"

#include <string>
#include <vector>

namespace diskbench::service {

// One temperature reading, placed by how far the run had got (the job's
// Progress, 0..1) when it was read: the throughput series' x is seconds
// for some benchmarks and a byte position for others, Progress fits both.
struct HeatSample {
    double progress = 0;
    double celsius = 0;
};

// When the drive reports none (udisks' SMART has no threshold), this is
// taken as the warning temperature: the usual NVMe warning composite
// temperature (WCTEMP) of client SSDs.
inline constexpr double assumed_warning_c = 70.0;
// A drop of at least this much is judged; smaller changes are noise.
inline constexpr double judged_drop_percent = 25.0;

struct SpeedDrop {
    bool found = false;
    double percent = 0;   // how much slower after the drop than before it
    double progress = 0;  // where it fell, as Progress
    double celsius = 0;   // the hottest reading near that point
    bool hot = false;     // celsius >= the warning threshold
};

// The series' largest step down: the split (at least three points on each
// side) where the median after it is furthest below the median before it;
// a drop when that is at least judged_drop_percent. A dip that recovers
// leaves the after-median high and is no drop. `points` in order of x.
SpeedDrop find_speed_drop(const std::vector<engine::SeriesPoint>& points, const std::vector<HeatSample>& heat,
                          double warning_c);

// Judges the result's "throughput" line series (one pass only: with passes
// the median series has no single time) against `heat`, and adds
// speed_drop_percent, speed_drop_c, speed_drop_cause ("thermal-throttling",
// "cache" for sustained-write, "not-heat" otherwise) and a warning
// (throttling) or note (a cool drop). `warning_c` 0: the drive gave no
// threshold, assumed_warning_c is used and said. Nothing without a drop or
// without readings.
void judge_speed_drop(engine::Result& result, const std::vector<HeatSample>& heat, double warning_c);

} // namespace diskbench::service
