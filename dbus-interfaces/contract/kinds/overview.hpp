// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the overview (engine's overview.cpp): its samples'
// read rates (and write rates when asked to write), and the latency of its
// access reads under access_latency_prefix (common_keys.hpp's figures).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::overview {

inline constexpr std::string_view samples = "samples";
inline constexpr std::string_view sample_size = "sample_size";
inline constexpr std::string_view access_reads = "access_reads";
inline constexpr std::string_view read_mb_s = "read_mb_s";
inline constexpr std::string_view read_min_mb_s = "read_min_mb_s";
inline constexpr std::string_view read_max_mb_s = "read_max_mb_s";
inline constexpr std::string_view read_bytes = "read_bytes";
inline constexpr std::string_view write_mb_s = "write_mb_s";
inline constexpr std::string_view write_min_mb_s = "write_min_mb_s";
inline constexpr std::string_view write_max_mb_s = "write_max_mb_s";
inline constexpr std::string_view write_bytes = "write_bytes";

inline constexpr std::array declared_keys { samples,    sample_size,    access_reads,   read_mb_s,
                                            read_min_mb_s, read_max_mb_s, read_bytes,     write_mb_s,
                                            write_min_mb_s, write_max_mb_s, write_bytes };

// "access_latency_mean_us" and the other figures of common::latency_figures.
inline constexpr std::string_view access_latency_prefix = "access_";
// The one of them a client shows as the overview's access time, by name for
// its tables.
inline constexpr std::string_view access_latency_mean_us = "access_latency_mean_us";
static_assert(access_latency_mean_us.starts_with(access_latency_prefix)
              && access_latency_mean_us.substr(access_latency_prefix.size()) == common::latency_mean_us);

constexpr bool declares(std::string_view key) noexcept
{
    return listed(declared_keys, key) || common::is_latency_key(access_latency_prefix, key);
}

} // namespace diskbench::contract::kinds::keys::overview
