// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of a set of runs (kinds::run_set, not a daemon kind):
// the clients write them (libdiskbench-client's run_set.cpp) and read them
// back from the set's result file.

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::run_set {

inline constexpr std::string_view benchmarks = "benchmarks"; // how many runs the set had
inline constexpr std::string_view finished = "finished";     // how many of them finished

inline constexpr std::array declared_keys { benchmarks, finished };

} // namespace diskbench::contract::kinds::keys::run_set
