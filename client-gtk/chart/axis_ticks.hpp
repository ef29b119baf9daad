// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

namespace diskbench::client {

// Round tick positions for a graph axis: steps of 1, 2 or 5 times a power of
// ten, at most `max_ticks` of them, covering [low, high]. `step` is the
// spacing, so labels can pick a matching precision.
struct AxisTicks {
    double first = 0;
    double last = 0;
    double step = 1;
    std::vector<double> values;
};

AxisTicks nice_ticks(double low, double high, int max_ticks);

// Like nice_ticks for byte offsets: steps are powers of two times
// 1, 256 or 512 in B/KiB/MiB/GiB/TiB, so labels read "512 MiB", "1 GiB".
AxisTicks byte_ticks(double low, double high, int max_ticks);

} // namespace diskbench::client
