// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the surface scan (engine's surface.cpp): its rates, its
// bad ranges and its slow blocks, beside its latency (common_keys.hpp, no
// prefix).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::surface {

inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view buckets = "buckets";
inline constexpr std::string_view throughput_mb_s = "throughput_mb_s";
inline constexpr std::string_view read_min_mb_s = "read_min_mb_s";
inline constexpr std::string_view read_max_mb_s = "read_max_mb_s";
inline constexpr std::string_view stopped_reason = "stopped_reason";
inline constexpr std::string_view bad_ranges = "bad_ranges";
inline constexpr std::string_view bad_bytes = "bad_bytes";
inline constexpr std::string_view failed_reads = "failed_reads";
inline constexpr std::string_view first_bad_lba = "first_bad_lba";
inline constexpr std::string_view bad_ranges_not_kept = "bad_ranges_not_kept";
inline constexpr std::string_view bad_ranges_not_narrowed = "bad_ranges_not_narrowed";
inline constexpr std::string_view slow_threshold_ms = "slow_threshold_ms";
inline constexpr std::string_view slow_blocks = "slow_blocks";
inline constexpr std::string_view slowest_read_ms = "slowest_read_ms";
inline constexpr std::string_view slowest_read_offset = "slowest_read_offset";
inline constexpr std::string_view slow_repeatable = "slow_repeatable";
inline constexpr std::string_view slow_one_off = "slow_one_off";

inline constexpr std::array declared_keys {
    bytes, buckets, throughput_mb_s, read_min_mb_s, read_max_mb_s, stopped_reason, bad_ranges, bad_bytes,
    failed_reads, first_bad_lba, bad_ranges_not_kept, bad_ranges_not_narrowed, slow_threshold_ms, slow_blocks,
    slowest_read_ms, slowest_read_offset, slow_repeatable, slow_one_off,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::surface
