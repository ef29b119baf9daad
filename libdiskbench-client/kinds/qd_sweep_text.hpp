// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kinds/kind_presentation.hpp"

// What both queue-depth sweeps (on a device, in a folder) say of their
// result: the best cell's IOPS, reading or writing as the summary says.
namespace diskbench::client::qd_sweep_text {

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap& summary);
void summary_parts(const SavedValueMap& summary, std::vector<std::string>& parts);

} // namespace diskbench::client::qd_sweep_text
