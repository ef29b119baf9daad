// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the sequential read (engine's sequential.cpp), beside
// its latency (common_keys.hpp, no prefix).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::sequential {

inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view throughput_mb_s = "throughput_mb_s";
inline constexpr std::string_view throughput_min_mb_s = "throughput_min_mb_s";
inline constexpr std::string_view throughput_max_mb_s = "throughput_max_mb_s";

inline constexpr std::array declared_keys { bytes, throughput_mb_s, throughput_min_mb_s, throughput_max_mb_s };

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::sequential
