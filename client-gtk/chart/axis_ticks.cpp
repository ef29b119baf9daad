// SPDX-License-Identifier: GPL-3.0-or-later
#include "axis_ticks.hpp"

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

// How many ticks `step` would need; computed before making them, so a
// too-small step is rejected without building a huge list.
long tick_count(double low, double high, double step)
{
    return std::lround((std::ceil(high / step) - std::floor(low / step))) + 1;
}

AxisTicks ticks_with_step(double low, double high, double step)
{
    AxisTicks ticks;
    ticks.step = step;
    ticks.first = std::floor(low / step) * step;
    ticks.last = std::ceil(high / step) * step;
    // Computed from an integer index so rounding errors do not accumulate.
    const long count = tick_count(low, high, step);
    for (long i = 0; i < count; ++i)
        ticks.values.push_back(ticks.first + static_cast<double>(i) * step);
    return ticks;
}

} // namespace

AxisTicks nice_ticks(double low, double high, int max_ticks)
{
    max_ticks = std::max(max_ticks, 2);
    if (!(high > low) || !std::isfinite(low) || !std::isfinite(high)) {
        // An empty or flat range still gets a readable axis around it.
        const double centre = std::isfinite(low) ? low : 0.0;
        const double half = centre == 0 ? 1.0 : std::abs(centre) * 0.5;
        return nice_ticks(centre - half, centre + half, max_ticks);
    }
    const double rough = (high - low) / (max_ticks - 1);
    const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
    for (double multiple : { 1.0, 2.0, 5.0, 10.0 })
        if (tick_count(low, high, multiple * magnitude) <= max_ticks)
            return ticks_with_step(low, high, multiple * magnitude);
    return ticks_with_step(low, high, 20 * magnitude);
}

AxisTicks byte_ticks(double low, double high, int max_ticks)
{
    max_ticks = std::max(max_ticks, 2);
    if (!(high > low) || !std::isfinite(low) || !std::isfinite(high))
        return nice_ticks(low, high, max_ticks);
    // Candidate steps: 1, 2, 4 .. 512 times 1 B, KiB, MiB, GiB, TiB, PiB.
    for (int exponent = 0; exponent < 60; ++exponent) {
        const double step = std::ldexp(1.0, exponent);
        if (tick_count(low, high, step) <= max_ticks)
            return ticks_with_step(low, high, step);
    }
    return nice_ticks(low, high, max_ticks);
}

} // namespace diskbench::client
