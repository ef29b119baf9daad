// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the file read/write benchmark (engine's file_rw.cpp):
// per pass (write, then read) its rates, and its latency under the pass's
// prefix (write_latency_prefix, read_latency_prefix: common_keys.hpp's
// figures).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::file_rw {

inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view write_mb_s = "write_mb_s";
inline constexpr std::string_view write_min_mb_s = "write_min_mb_s";
inline constexpr std::string_view write_max_mb_s = "write_max_mb_s";
inline constexpr std::string_view read_mb_s = "read_mb_s";
inline constexpr std::string_view read_min_mb_s = "read_min_mb_s";
inline constexpr std::string_view read_max_mb_s = "read_max_mb_s";

inline constexpr std::array declared_keys { bytes,     write_mb_s,    write_min_mb_s, write_max_mb_s,
                                            read_mb_s, read_min_mb_s, read_max_mb_s };

inline constexpr std::string_view write_latency_prefix = "write_";
inline constexpr std::string_view read_latency_prefix = "read_";

constexpr bool declares(std::string_view key) noexcept
{
    return listed(declared_keys, key) || common::is_latency_key(write_latency_prefix, key)
        || common::is_latency_key(read_latency_prefix, key);
}

} // namespace diskbench::contract::kinds::keys::file_rw
