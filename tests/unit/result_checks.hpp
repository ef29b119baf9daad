// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reading a benchmark's Result in tests: a series by name, a summary figure
// as a number, a word in the warnings or notes.

#include "results/result.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace diskbench::testing {

inline const engine::Series& series_named(const engine::Result& result, const std::string& name)
{
    for (const auto& series : result.series)
        if (series.info.name == name)
            return series;
    FAIL("no series " << name);
    throw std::logic_error("unreachable");
}

// A summary figure; -1 when it is not a number (so a check fails loudly).
inline double number(const engine::Result& result, const std::string& key)
{
    const auto it = result.summary.find(key);
    INFO(key);
    REQUIRE(it != result.summary.end());
    return std::visit([](const auto& v) -> double {
        if constexpr (std::is_arithmetic_v<std::decay_t<decltype(v)>>)
            return static_cast<double>(v);
        else
            return -1;
    }, it->second);
}

// A summary text; "<not text>" when it is another type (so a check fails loudly).
inline std::string text(const engine::Result& result, const std::string& key)
{
    const auto it = result.summary.find(key);
    INFO(key);
    REQUIRE(it != result.summary.end());
    const auto* value = std::get_if<std::string>(&it->second);
    return value ? *value : std::string("<not text>");
}

inline bool mentions(const std::vector<std::string>& texts, const std::string& word)
{
    return std::any_of(texts.begin(), texts.end(), [&](const auto& t) { return t.find(word) != std::string::npos; });
}

} // namespace diskbench::testing
