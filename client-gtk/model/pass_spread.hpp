// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

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

// The spread as the daemon published it (engine passes.cpp), so the app
// does not redo its arithmetic: the summary's "<test>.<figure>_min", "_max"
// and "_cv_percent" and its "passes", for the profile test named `test`
// ("SEQ1M Q8T1" -> "seq1m_q8t1") and the bar series `name` ("throughput" ->
// figure "throughput_mb_s", "latency_p99" -> "latency_p99_us").
// std::nullopt when the summary lacks them: a run of one pass, one still
// running (the keys come with its end) or a file from before passes.
std::optional<PassSpread> summary_pass_spread(const SavedValueMap& summary, const std::string& test,
                                              const std::string& name);

} // namespace diskbench::client
