// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the queue-depth sweep on a file: qd-sweep's (the
// engine's qd_sweep_support.cpp writes both) and the file's size.

#include "contract/kinds/qd_sweep.hpp"

namespace diskbench::contract::kinds::keys::file_qd_sweep {

using qd_sweep::best_iops;
using qd_sweep::best_queue_depth;
using qd_sweep::best_threads;
using qd_sweep::cells;
using qd_sweep::direction;
using qd_sweep::pattern;
inline constexpr std::string_view file_size_bytes = "file_size_bytes";

inline constexpr std::array declared_keys { pattern,     direction,    cells,          best_iops,
                                            best_queue_depth, best_threads, file_size_bytes };

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::file_qd_sweep
