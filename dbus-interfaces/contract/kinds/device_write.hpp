// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the raw device write (engine's device_write.cpp): its
// sizes and tests, and per test (kinds/test_keys.hpp) its figures below and
// its latency (common_keys.hpp's figures after "<test>.").

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/test_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::device_write {

inline constexpr std::string_view sequential_size = "sequential_size";
inline constexpr std::string_view region_size = "region_size";
inline constexpr std::string_view tests = "tests"; // the tests' labels, ", " between

inline constexpr std::array declared_keys { sequential_size, region_size, tests };

// The figures after "<test>.".
inline constexpr std::string_view throughput_mb_s = "throughput_mb_s";
inline constexpr std::string_view iops = "iops";
inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view seconds = "seconds";
inline constexpr std::array test_figures { throughput_mb_s, iops, bytes, seconds };

constexpr bool declares(std::string_view key) noexcept
{
    const std::string_view figure = per_test::figure_of(key);
    return listed(declared_keys, key)
        || (per_test::is_test_name(per_test::test_of(key))
            && (listed(test_figures, figure) || common::is_latency_key("", figure)));
}

} // namespace diskbench::contract::kinds::keys::device_write
