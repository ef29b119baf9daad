// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the burn-in (engine's burn_in.cpp): every block
// written and read back, what came back wrong and where, the speeds of each
// way, and the verdict with its reasons ("unreadable", "mismatched",
// "write-errors", "slow", comma-separated; "pass" has none). The read
// latency is in the common keys (common_keys.hpp, no prefix). Counts are
// over all cycles: a block read back wrong in two cycles counts twice.

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::burn_in {

inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view cycles = "cycles";
inline constexpr std::string_view cycles_done = "cycles_done";
inline constexpr std::string_view written_bytes = "written_bytes";
inline constexpr std::string_view verified_bytes = "verified_bytes";
inline constexpr std::string_view write_mb_s = "write_mb_s";
inline constexpr std::string_view write_min_mb_s = "write_min_mb_s";
inline constexpr std::string_view write_max_mb_s = "write_max_mb_s";
inline constexpr std::string_view read_mb_s = "read_mb_s";
inline constexpr std::string_view read_min_mb_s = "read_min_mb_s";
inline constexpr std::string_view read_max_mb_s = "read_max_mb_s";
inline constexpr std::string_view unreadable_ranges = "unreadable_ranges";
inline constexpr std::string_view unreadable_bytes = "unreadable_bytes";
inline constexpr std::string_view first_unreadable_lba = "first_unreadable_lba";
inline constexpr std::string_view mismatched_blocks = "mismatched_blocks";
inline constexpr std::string_view mismatched_bytes = "mismatched_bytes";
// Blocks whose first wrong sector holds this run's write of another offset:
// a write that landed elsewhere, not one that was lost.
inline constexpr std::string_view misplaced_blocks = "misplaced_blocks";
inline constexpr std::string_view first_mismatch_offset = "first_mismatch_offset";
inline constexpr std::string_view first_mismatch_holds_offset = "first_mismatch_holds_offset";
inline constexpr std::string_view write_errors = "write_errors";
inline constexpr std::string_view slow_threshold_ms = "slow_threshold_ms";
inline constexpr std::string_view slow_blocks = "slow_blocks";
inline constexpr std::string_view slow_repeatable = "slow_repeatable";
inline constexpr std::string_view verdict = "verdict";
inline constexpr std::string_view verdict_reasons = "verdict_reasons";
inline constexpr std::string_view stopped_reason = "stopped_reason";
inline constexpr std::string_view seconds = "seconds";

inline constexpr std::array declared_keys {
    bytes,          cycles,           cycles_done,          written_bytes,     verified_bytes,
    write_mb_s,     write_min_mb_s,   write_max_mb_s,       read_mb_s,         read_min_mb_s,
    read_max_mb_s,  unreadable_ranges, unreadable_bytes,    first_unreadable_lba, mismatched_blocks,
    mismatched_bytes, misplaced_blocks, first_mismatch_offset, first_mismatch_holds_offset, write_errors,
    slow_threshold_ms, slow_blocks,   slow_repeatable,      verdict,           verdict_reasons,
    stopped_reason, seconds,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::burn_in
