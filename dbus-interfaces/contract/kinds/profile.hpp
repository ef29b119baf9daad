// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the profile (engine's profile.cpp): per test
// (kinds/test_keys.hpp) its figures below and its latency (common_keys.hpp's
// figures after "<test>.").

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/test_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::profile {

// No key of a fixed name: every one is a test's (tests::test_key).
inline constexpr std::array<std::string_view, 0> declared_keys {};

// The figures after "<test>.".
inline constexpr std::string_view throughput_mb_s = "throughput_mb_s";
inline constexpr std::string_view iops = "iops";
inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view seconds = "seconds";
inline constexpr std::string_view cpu_percent = "cpu_percent";
inline constexpr std::array test_figures { throughput_mb_s, iops, bytes, seconds, cpu_percent };

constexpr bool declares(std::string_view key) noexcept
{
    const std::string_view figure = tests::figure_of(key);
    return tests::is_test_name(tests::test_of(key))
        && (listed(test_figures, figure) || common::is_latency_key("", figure));
}

} // namespace diskbench::contract::kinds::keys::profile
