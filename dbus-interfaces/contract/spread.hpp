// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How much repeated measurements of one figure vary: the engine's summary
// keys X_cv_percent and the app's pass spread use this one formula, so a
// figure the app works out from the pass series equals the daemon's.
// Header only and without GLib: the engine includes it too.

#include <cmath>
#include <span>

namespace diskbench::contract {

// The sample coefficient of variation in percent: the standard deviation
// with Bessel's correction (n - 1) over the mean's magnitude. 0 for fewer
// than two values or a mean of 0.
[[nodiscard]] inline double sample_cv_percent(std::span<const double> values) noexcept
{
    if (values.size() < 2)
        return 0;
    double mean = 0;
    for (double value : values)
        mean += value;
    mean /= static_cast<double>(values.size());
    double squares = 0;
    for (double value : values)
        squares += (value - mean) * (value - mean);
    const double deviation = std::sqrt(squares / static_cast<double>(values.size() - 1));
    return mean != 0 ? deviation / std::fabs(mean) * 100 : 0;
}

} // namespace diskbench::contract
