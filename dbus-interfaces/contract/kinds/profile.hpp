// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the profile (engine's profile.cpp): what it ran, and
// per test (kinds/test_keys.hpp) its figures below and its latency
// (common_keys.hpp's figures after "<test>."). With write=true (the write
// column), the tests written (written_tests) and each one's figures again
// after "<test>.write_"; in destroy mode also the mixed test, "mix.",
// with its total, its share of reads and its figures after "mix.read_" and
// "mix.write_".

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/test_keys.hpp"

#include <array>
#include <string_view>

namespace diskbench::contract::kinds::keys::profile {

inline constexpr std::string_view tests = "tests"; // the tests' labels, ", " between
inline constexpr std::string_view region_size = "region_size";
inline constexpr std::string_view interval_s = "interval_s";

inline constexpr std::string_view written_tests = "written_tests"; // labels, "," between
inline constexpr std::array declared_keys { tests, region_size, interval_s, written_tests };

// The figures after "<test>.".
inline constexpr std::string_view throughput_mb_s = "throughput_mb_s";
inline constexpr std::string_view iops = "iops";
inline constexpr std::string_view bytes = "bytes";
inline constexpr std::string_view seconds = "seconds";
inline constexpr std::string_view cpu_percent = "cpu_percent";
inline constexpr std::array test_figures { throughput_mb_s, iops, bytes, seconds, cpu_percent };

// A written test's figures: "<test>." + write_prefix + a test figure or a
// latency figure ("seq1m_q8t1.write_throughput_mb_s").
inline constexpr std::string_view write_prefix = "write_";
inline constexpr std::string_view read_prefix = "read_"; // the mixed test's reads

// The mixed test's name in its keys and its figures of both directions
// (the same as file-profile's).
inline constexpr std::string_view mix_test = "mix";
inline constexpr std::string_view total_mb_s = "total_mb_s";
inline constexpr std::string_view read_percent = "read_percent";
inline constexpr std::array mix_figures { total_mb_s, read_percent };

// "seq1m_q8t1" + "write_" + "iops" -> "seq1m_q8t1.write_iops".
inline std::string direction_key(std::string_view test, std::string_view direction_prefix, std::string_view figure)
{
    return per_test::test_key(test, joined(direction_prefix, figure));
}

constexpr bool is_direction_figure(std::string_view direction_prefix, std::string_view figure) noexcept
{
    return listed_after(direction_prefix, test_figures, figure) || common::is_latency_key(direction_prefix, figure);
}

constexpr bool declares(std::string_view key) noexcept
{
    const std::string_view figure = per_test::figure_of(key);
    const std::string_view test = per_test::test_of(key);
    if (test == mix_test)
        return listed(mix_figures, figure) || is_direction_figure(read_prefix, figure)
            || is_direction_figure(write_prefix, figure);
    return listed(declared_keys, key)
        || (per_test::is_test_name(test)
            && (listed(test_figures, figure) || common::is_latency_key("", figure)
                || is_direction_figure(write_prefix, figure)));
}

} // namespace diskbench::contract::kinds::keys::profile
