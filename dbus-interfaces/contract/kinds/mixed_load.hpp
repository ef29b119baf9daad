// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the mixed load (engine's mixed_load.cpp): the sort's
// chunk I/O and its counts, and the latency of its reads and its writes
// under read_latency_prefix and write_latency_prefix (common_keys.hpp's
// figures).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::mixed_load {

inline constexpr std::string_view read_mb_s = "read_mb_s";
inline constexpr std::string_view write_mb_s = "write_mb_s";
inline constexpr std::string_view bytes_read = "bytes_read";
inline constexpr std::string_view bytes_written = "bytes_written";
inline constexpr std::string_view read_time_s = "read_time_s";
inline constexpr std::string_view write_time_s = "write_time_s";
inline constexpr std::string_view chunk_reads = "chunk_reads";
inline constexpr std::string_view chunk_writes = "chunk_writes";
inline constexpr std::string_view comparisons = "comparisons";
inline constexpr std::string_view swaps = "swaps";
inline constexpr std::string_view syncs = "syncs";
inline constexpr std::string_view sort_s = "sort_s";
inline constexpr std::string_view threads = "threads";
inline constexpr std::string_view file_size = "file_size";
inline constexpr std::string_view chunk_size = "chunk_size";
inline constexpr std::string_view sorted = "sorted";

inline constexpr std::array declared_keys { read_mb_s,   write_mb_s,   bytes_read,  bytes_written, read_time_s,
                                            write_time_s, chunk_reads, chunk_writes, comparisons,  swaps,
                                            syncs,       sort_s,       threads,     file_size,     chunk_size,
                                            sorted };

inline constexpr std::string_view read_latency_prefix = "read_";
inline constexpr std::string_view write_latency_prefix = "write_";

constexpr bool declares(std::string_view key) noexcept
{
    return listed(declared_keys, key) || common::is_latency_key(read_latency_prefix, key)
        || common::is_latency_key(write_latency_prefix, key);
}

} // namespace diskbench::contract::kinds::keys::mixed_load
