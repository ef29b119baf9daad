// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "result_types.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::client {

// How one bar (point x == `index`) of series `name` spread over a run's
// passes, from its "<name>.pass<k>" series (the daemon's passes): the same
// coefficient of variation as the summary's _cv_percent (sample deviation
// over the mean). std::nullopt for a run of one pass.
struct PassSpread {
    std::size_t passes = 0;
    double minimum = 0, maximum = 0, cv_percent = 0;
};
std::optional<PassSpread> pass_spread(const std::vector<SavedSeries>& series, const std::string& name,
                                      std::size_t index);

} // namespace diskbench::client
