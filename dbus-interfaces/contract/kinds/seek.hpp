// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the seek benchmark (engine's seek.cpp), beside its
// latency (common_keys.hpp, no prefix).

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::seek {

inline constexpr std::string_view reads = "reads";
inline constexpr std::string_view block_size = "block_size";

inline constexpr std::array declared_keys { reads, block_size };

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::seek
