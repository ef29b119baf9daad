// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Quick parameters for every kind of the registry, for the tests that run
// them all on a 16 MiB file or a small folder (test_budget_every_kind.cpp,
// test_summary_keys.cpp): one list, so a kind added later is quick in both.

#include "parameters/value.hpp"

#include <cstdint>
#include <string_view>

namespace diskbench::testing {

inline constexpr std::uint64_t MiB = 1024 * 1024;

// The kind's quick parameters; the defaults where those are quick.
engine::ValueMap small_run(std::string_view kind);

} // namespace diskbench::testing
