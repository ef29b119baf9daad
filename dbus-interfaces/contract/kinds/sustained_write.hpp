// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the sustained write (engine's sustained_write.cpp): its
// rates and where they fell, beside its latency (common_keys.hpp, no prefix)
// and the daemon's speed drop (common_keys.hpp).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::sustained_write {

inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view seconds = "seconds";
inline constexpr std::string_view throughput_mb_s = "throughput_mb_s";
inline constexpr std::string_view windows = "windows";
inline constexpr std::string_view burst_mb_s = "burst_mb_s";
inline constexpr std::string_view steady_mb_s = "steady_mb_s";
inline constexpr std::string_view cliff = "cliff";
inline constexpr std::string_view cliff_at_bytes = "cliff_at_bytes";
inline constexpr std::string_view cliff_at_s = "cliff_at_s";
inline constexpr std::string_view steady_state = "steady_state";

inline constexpr std::array declared_keys {
    bytes, seconds, throughput_mb_s, windows, burst_mb_s, steady_mb_s, cliff, cliff_at_bytes, cliff_at_s,
    steady_state,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::sustained_write
