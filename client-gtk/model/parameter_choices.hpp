// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The drop-down of a parameter with a list of values (ListParameterChoices):
// what it offers, in the daemon's order, and how each reads ("1 GiB", not
// 1073741824). No GTK here, so tests check it directly.

#include "types/daemon_types.hpp"

#include <string>
#include <vector>

namespace diskbench::client {

// How one value of `info` reads in its drop-down.
std::string choice_label(const ParameterInfo& info, const SavedValue& value);

// The values the drop-down of `info` offers: its choices, and `current`
// after them when it is another (a size typed elsewhere, or a saved run's).
std::vector<SavedValue> offered_values(const ParameterInfo& info, const SavedValue& current);

} // namespace diskbench::client
