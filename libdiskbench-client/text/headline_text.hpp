// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "text/value_format.hpp"
#include "types/result_types.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace diskbench::client {

// A figure a history line shows and a trend can follow.
struct HeadlineFigure {
    std::string key;   // the summary key, e.g. "latency_mean_us"
    std::string label; // translated, e.g. "access time"
    Unit unit = Unit::Plain;
};

// The headline figures of a result of `kind`, at most `limit`, the first
// the one that matters most: Seek's mean access time, qd-sweep's best
// IOPS, a throughput (read, write) for the others, IOPS, the mean latency.
std::vector<HeadlineFigure> headline_figures(const std::string& kind, const SavedValueMap& summary,
                                             std::size_t limit = 2);
// "access time 8.50 ms  ·  p99 21 ms"; "–" without any figure.
std::string headline_text(const std::string& kind, const SavedValueMap& summary, std::size_t limit = 2);

} // namespace diskbench::client
