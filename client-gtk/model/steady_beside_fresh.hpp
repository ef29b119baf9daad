// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The device Profiles page's line under its grid: the disk's newest
// steady-state figure beside its fresh-out-of-box one (issue 43). A
// profile's random writes run on a fresh or idle drive; what the same SSD
// does once full and worn in is the steady-state test's, kept among the
// user's results, so the page says it where the profile's figures are.

#include "results/recent_results.hpp"

#include <string>
#include <vector>

namespace diskbench::client {

// "Steady state, 4 KiB random writes at QD32 (3 Dec 2026 17:58): steady
// 21.4k IOPS from round 9 (fresh 96.0k IOPS)"; "" when no kept
// steady-state run of this disk (same_device()) has its figures.
std::string steady_state_beside_fresh(const std::vector<RecentResult>& results, const SavedValueMap& device_identity);

} // namespace diskbench::client
