// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"

#include <optional>
#include <string>
#include <vector>

namespace diskbench::client {

// Seek's headline, the figure HDDTest and GNOME Disks give: "average access
// time 0.08 ms" from the summary's latency_mean_us; nothing when the run has
// no mean (yet).
std::optional<std::string> access_time_headline(const SavedValueMap& summary);

// The latency percentiles a summary holds under `prefix` (a profile test's
// "seq1m_q8t1." or nothing), in order: "p50 85 µs", "p99 1.0 ms",
// "p99.9 2.1 ms". Missing ones are left out.
std::vector<std::string> percentile_parts(const SavedValueMap& summary, const std::string& prefix = {});

// Every latency figure of a summary, one a line, for a tooltip:
// "mean 80 µs\nmin 40 µs\np50 …\np90 …\np99 …\np99.9 …\nmax …"; empty when
// the summary has no latency.
std::string latency_tooltip_text(const SavedValueMap& summary, const std::string& prefix = {});

} // namespace diskbench::client
