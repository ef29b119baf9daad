// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the random-read sweep over block sizes: the same as
// block's (the engine's sweep_support.cpp writes both).

#include "contract/kinds/block.hpp"

namespace diskbench::contract::kinds::keys::random {

using block::bytes;
using block::reads;
using block::throughput_max_mb_s;
using block::throughput_min_mb_s;

inline constexpr auto declared_keys = block::declared_keys;

constexpr bool declares(std::string_view key) noexcept { return block::declares(key); }

} // namespace diskbench::contract::kinds::keys::random
