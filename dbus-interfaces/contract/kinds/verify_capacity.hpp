// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the capacity check (engine's verify_capacity.cpp): the
// probes it wrote and read back, and the size the device really has.

#include "contract/kinds/common_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::verify_capacity {

inline constexpr std::string_view claimed_bytes = "claimed_bytes";
inline constexpr std::string_view probe_block = "probe_block";
inline constexpr std::string_view probe_spacing = "probe_spacing";
inline constexpr std::string_view probes = "probes";
inline constexpr std::string_view written_bytes = "written_bytes";
inline constexpr std::string_view probes_unreadable = "probes_unreadable";
inline constexpr std::string_view write_errors = "write_errors";
inline constexpr std::string_view bisection_steps = "bisection_steps";
inline constexpr std::string_view first_lost_offset = "first_lost_offset";
inline constexpr std::string_view first_lost_errno = "first_lost_errno";
inline constexpr std::string_view probes_lost = "probes_lost";
inline constexpr std::string_view failure = "failure";
inline constexpr std::string_view real_size_bytes = "real_size_bytes";
inline constexpr std::string_view lost_bytes = "lost_bytes";
inline constexpr std::string_view boundary_uncertainty_bytes = "boundary_uncertainty_bytes";
inline constexpr std::string_view seconds = "seconds";

inline constexpr std::array declared_keys {
    claimed_bytes, probe_block, probe_spacing, probes, written_bytes, probes_unreadable, write_errors,
    bisection_steps, first_lost_offset, first_lost_errno, probes_lost, failure, real_size_bytes, lost_bytes,
    boundary_uncertainty_bytes, seconds,
};

constexpr bool declares(std::string_view key) noexcept { return listed(declared_keys, key); }

} // namespace diskbench::contract::kinds::keys::verify_capacity
