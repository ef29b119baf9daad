// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the queue-depth sweep (engine's qd_sweep_support.cpp,
// which file-qd-sweep shares: kinds/file_qd_sweep.hpp); its writes add mode
// and written_range_bytes (common_keys.hpp).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::qd_sweep {

inline constexpr std::string_view pattern = "pattern";
inline constexpr std::string_view direction = "direction";
inline constexpr std::string_view cells = "cells";
inline constexpr std::string_view best_iops = "best_iops";
inline constexpr std::string_view best_queue_depth = "best_queue_depth";
inline constexpr std::string_view best_threads = "best_threads";

inline constexpr std::array declared_keys { pattern, direction, cells, best_iops, best_queue_depth, best_threads };

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::qd_sweep
