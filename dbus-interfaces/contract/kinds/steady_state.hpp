// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the steady-state test (engine's steady_state.cpp):
// the purge, the preconditioning, and the rounds with SNIA's measurement
// window over their IOPS, beside the window's latency (common_keys.hpp, no
// prefix) and the flush rule.

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::steady_state {

// The purge: whether it ran, how ("discard", BLKDISCARD of a block device;
// "punch-hole" for a file; "none"), and what the device says of discard
// (its queue's discard_max_bytes and discard_granularity; 0 when it has none).
inline constexpr std::string_view purged = "purged";
inline constexpr std::string_view purge_method = "purge_method";
inline constexpr std::string_view purge_seconds = "purge_seconds";
inline constexpr std::string_view discard_max_bytes = "discard_max_bytes";
inline constexpr std::string_view discard_granularity = "discard_granularity";
// Workload-independent preconditioning: sequential 128 KiB writes.
inline constexpr std::string_view precondition_bytes = "precondition_bytes";
inline constexpr std::string_view precondition_seconds = "precondition_seconds";
inline constexpr std::string_view precondition_mb_s = "precondition_mb_s";
// The rounds: how many ran, the first (fresh-out-of-box after the purge)
// and whether the last `steady_window_rounds` of them hold SNIA's window.
inline constexpr std::string_view rounds = "rounds";
inline constexpr std::string_view read_percent = "read_percent";
inline constexpr std::string_view fresh_iops = "fresh_iops";
inline constexpr std::string_view fresh_mb_s = "fresh_mb_s";
inline constexpr std::string_view steady_state = "steady_state";
inline constexpr std::string_view steady_first_round = "steady_first_round"; // 1-based
inline constexpr std::string_view steady_window_rounds = "steady_window_rounds";
inline constexpr std::string_view steady_iops = "steady_iops";
inline constexpr std::string_view steady_mb_s = "steady_mb_s";
inline constexpr std::string_view window_excursion_percent = "window_excursion_percent";
inline constexpr std::string_view window_slope_percent = "window_slope_percent";

inline constexpr std::array declared_keys {
    purged,         purge_method,   purge_seconds,        discard_max_bytes,     discard_granularity,
    precondition_bytes, precondition_seconds, precondition_mb_s, rounds,         read_percent,
    fresh_iops,     fresh_mb_s,     steady_state,         steady_first_round,    steady_window_rounds,
    steady_iops,    steady_mb_s,    window_excursion_percent, window_slope_percent,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::steady_state
