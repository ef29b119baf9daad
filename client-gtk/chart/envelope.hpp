// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contract/series.hpp"

#include <cstddef>
#include <span>
#include <vector>

namespace diskbench::client {

// The chart draws the points the daemon and result files carry, as they are.
using contract::SeriesPoint;

// One pixel column of a line graph with more points than pixels: the
// smallest, largest and mean y of the points whose x falls in it. Drawing
// the min..max band and the mean line shows the dips a plain average hides
// (the blockspeed study's "black areas").
struct EnvelopeColumn {
    double x = 0; // centre of the column
    double min = 0;
    double max = 0;
    double mean = 0;
    std::size_t count = 0;
};

// Points must be sorted by x. Columns with no point are left out. Runs in
// one pass, so a million points cost a few milliseconds.
std::vector<EnvelopeColumn> envelope(std::span<const SeriesPoint> points, double x_low, double x_high,
                                     std::size_t columns);

} // namespace diskbench::client
