// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The summary keys of the file profile (engine's file_profile.cpp): the
// file and the tests, and per test (kinds/test_keys.hpp, or the mixed
// test's mix_test) and direction "<test>.read_<figure>" and
// "<test>.write_<figure>" with the figures below or common_keys.hpp's
// latency figures; the mixed test adds its total and its share of reads.

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/test_keys.hpp"

#include <array>
#include <string>
#include <string_view>

namespace diskbench::contract::kinds::keys::file_profile {

inline constexpr std::string_view file_size_bytes = "file_size_bytes";
inline constexpr std::string_view data = "data";
inline constexpr std::string_view select = "select";
inline constexpr std::string_view interval_s = "interval_s";
inline constexpr std::string_view tests = "tests"; // the tests' labels, ", " between

inline constexpr std::array declared_keys { file_size_bytes, data, select, interval_s, tests };

// The mixed test's name in its keys, and its figures of both directions.
inline constexpr std::string_view mix_test = "mix";
inline constexpr std::string_view total_mb_s = "total_mb_s";
inline constexpr std::string_view read_percent = "read_percent";
inline constexpr std::array mix_figures { total_mb_s, read_percent };

// "<test>." + direction prefix + figure.
inline constexpr std::string_view read_prefix = "read_";
inline constexpr std::string_view write_prefix = "write_";
inline constexpr std::string_view mb_s = "mb_s";
inline constexpr std::string_view iops = "iops";
inline constexpr std::string_view bytes = "bytes";
inline constexpr std::array direction_figures { mb_s, iops, bytes };

// "seq1m_q8t1" + "read_" + "mb_s" -> "seq1m_q8t1.read_mb_s".
inline std::string direction_key(std::string_view test, std::string_view direction_prefix, std::string_view figure)
{
    return per_test::test_key(test, joined(direction_prefix, figure));
}

constexpr bool is_direction_figure(std::string_view direction_prefix, std::string_view figure) noexcept
{
    return listed_after(direction_prefix, direction_figures, figure)
        || common::is_latency_key(direction_prefix, figure);
}

constexpr bool declares(std::string_view key) noexcept
{
    if (listed(declared_keys, key))
        return true;
    const std::string_view test = per_test::test_of(key);
    const std::string_view figure = per_test::figure_of(key);
    if (test != mix_test && !per_test::is_test_name(test))
        return false;
    return is_direction_figure(read_prefix, figure) || is_direction_figure(write_prefix, figure)
        || (test == mix_test && listed(mix_figures, figure));
}

} // namespace diskbench::contract::kinds::keys::file_profile
