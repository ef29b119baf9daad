// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace diskbench::contract {

// One measured point of a series: x in the series' x unit (bytes, seconds,
// a queue depth, a test's index), y in its y unit. Job.GetSampleRange,
// Job.Samples and result files all carry these.
struct SeriesPoint {
    double x = 0;
    double y = 0;
    bool operator==(const SeriesPoint&) const = default;
};

// One (name, x unit, y unit, style) entry of Job.Series. Style is "line",
// "bar" or "scatter".
struct SeriesDeclaration {
    std::string name, x_unit, y_unit, style;
    bool operator==(const SeriesDeclaration&) const = default;
};

// A sample as the bus carries it: (series index, x, y), the a(udd) of
// Job.GetSampleRange and Job.Samples.
struct IndexedSample {
    std::uint32_t series = 0;
    double x = 0, y = 0;
};

} // namespace diskbench::contract
