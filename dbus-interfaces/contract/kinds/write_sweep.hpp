// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the write sweep over block sizes (engine's
// write_sweep_support.cpp, which device-write-sweep shares:
// kinds/device_write_sweep.hpp).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::write_sweep {

inline constexpr std::string_view writes = "writes";
inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view bytes_per_size = "bytes_per_size";
inline constexpr std::string_view best_block_size = "best_block_size";
inline constexpr std::string_view throughput_max_mb_s = "throughput_max_mb_s";
inline constexpr std::string_view throughput_min_mb_s = "throughput_min_mb_s";

inline constexpr std::array declared_keys {
    writes, bytes, bytes_per_size, best_block_size, throughput_max_mb_s, throughput_min_mb_s,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::write_sweep
