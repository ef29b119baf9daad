// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the burst rate (engine's burst.cpp, HD Tune's "burst
// rate"): the read rate of one small region the drive's cache answers,
// with its slowest and fastest window, beside its latency and the link's
// limit (common_keys.hpp, no prefix).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::burst {

inline constexpr std::string_view burst_mb_s = "burst_mb_s";
inline constexpr std::string_view throughput_min_mb_s = "throughput_min_mb_s";
inline constexpr std::string_view throughput_max_mb_s = "throughput_max_mb_s";
inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view region_size = "region_size";

inline constexpr std::array declared_keys { burst_mb_s, throughput_min_mb_s, throughput_max_mb_s, bytes, region_size };

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::burst
