// SPDX-License-Identifier: GPL-3.0-or-later
#include "types/saved_values.hpp"

#include "contract/kinds/profile_presets.hpp"
#include "contract/kinds/test_keys.hpp"


#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace {

const SavedValue* find(const SavedValueMap& map, std::string_view key)
{
    const auto found = map.find(std::string(key));
    return found == map.end() ? nullptr : &found->second;
}

} // namespace

std::int64_t integer_of(const SavedValueMap& map, std::string_view key, std::int64_t fallback)
{
    const SavedValue* value = find(map, key);
    if (const auto* integer = value ? std::get_if<std::int64_t>(value) : nullptr)
        return *integer;
    if (const auto* number = value ? std::get_if<double>(value) : nullptr)
        // Casting NaN or a value past int64 is undefined: those fall back.
        if (std::isfinite(*number) && std::fabs(*number) < 9.2e18)
            return static_cast<std::int64_t>(*number);
    return fallback;
}

std::optional<double> as_number(const SavedValue& value)
{
    if (const auto* number = std::get_if<double>(&value))
        return *number;
    if (const auto* integer = std::get_if<std::int64_t>(&value))
        return static_cast<double>(*integer);
    return std::nullopt;
}

double number_of(const SavedValueMap& map, std::string_view key, double fallback)
{
    const SavedValue* value = find(map, key);
    return value ? as_number(*value).value_or(fallback) : fallback;
}

bool boolean_of(const SavedValueMap& map, std::string_view key, bool fallback)
{
    const SavedValue* value = find(map, key);
    const auto* boolean = value ? std::get_if<bool>(value) : nullptr;
    return boolean ? *boolean : fallback;
}

std::string text_of(const SavedValueMap& map, std::string_view key, const std::string& fallback)
{
    const SavedValue* value = find(map, key);
    const auto* text = value ? std::get_if<std::string>(value) : nullptr;
    return text ? *text : fallback;
}

bool has_key(const SavedValueMap& map, std::string_view key)
{
    return find(map, key) != nullptr;
}

std::string profile_summary_key(std::string_view test)
{
    return contract::kinds::keys::per_test::test_name(test);
}

std::vector<std::string> split_profile_tests(const std::string& list)
{
    std::vector<std::string> tests;
    std::size_t start = 0;
    while (start < list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        std::string test = list.substr(start, comma - start);
        test.erase(0, test.find_first_not_of(' '));
        test.erase(test.find_last_not_of(' ') + 1);
        if (!test.empty())
            tests.push_back(test);
        start = comma + 1;
    }
    return tests;
}

std::string profile_preset_tests(const std::string& preset)
{
    return std::string(contract::profile_preset_tests(preset));
}

std::optional<double> point_at_test(const std::vector<SavedSeries>& series, std::string_view name, std::size_t test)
{
    for (const SavedSeries& s : series)
        if (s.name == name)
            for (const SeriesPoint& point : s.points)
                if (point.x >= 0 && point.x < 1e15 && static_cast<std::size_t>(point.x) == test)
                    return point.y;
    return std::nullopt;
}

std::string profile_tests_of(const SavedValueMap& parameters)
{
    const std::string tests = text_of(parameters, "tests");
    return tests.empty() ? profile_preset_tests(text_of(parameters, "preset", "default")) : tests;
}

} // namespace diskbench::client
