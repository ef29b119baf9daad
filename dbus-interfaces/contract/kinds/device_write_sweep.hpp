// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the raw device's write sweep over block sizes: the
// same as write-sweep's (the engine's write_sweep_support.cpp writes both).

#include "contract/kinds/write_sweep.hpp"

namespace diskbench::contract::kinds::keys::device_write_sweep {

using write_sweep::best_block_size;
using write_sweep::bytes;
using write_sweep::bytes_per_size;
using write_sweep::throughput_max_mb_s;
using write_sweep::throughput_min_mb_s;
using write_sweep::writes;

inline constexpr auto declared_keys = write_sweep::declared_keys;

constexpr bool declares(std::string_view key) noexcept { return write_sweep::declares(key); }

} // namespace diskbench::contract::kinds::keys::device_write_sweep
