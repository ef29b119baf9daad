// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_tests.hpp"

#include "contract/kinds/profile_presets.hpp"
#include "contract/kinds/test_keys.hpp"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// Reads a positive decimal number at the front of `text`, consuming it.
std::optional<std::uint64_t> take_number(std::string_view& text)
{
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || value == 0)
        return std::nullopt;
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return value;
}

bool take_prefix(std::string_view& text, std::string_view prefix)
{
    if (!text.starts_with(prefix))
        return false;
    text.remove_prefix(prefix.size());
    return true;
}

} // namespace

std::string ProfileTest::label() const
{
    const bool mebibytes = block % (1024 * 1024) == 0;
    return fmt::format("{}{}{} Q{}T{}", random ? "RND" : "SEQ", mebibytes ? block / (1024 * 1024) : block / 1024,
                       mebibytes ? "M" : "K", queue_depth, threads);
}

std::string ProfileTest::summary_key() const
{
    return contract::kinds::keys::per_test::test_name(label());
}

std::optional<ProfileTest> parse_profile_test(std::string_view text)
{
    text = trim(text);
    ProfileTest test;
    if (take_prefix(text, "RND"))
        test.random = true;
    else if (!take_prefix(text, "SEQ"))
        return std::nullopt;
    const auto size = take_number(text);
    if (!size || text.empty())
        return std::nullopt;
    const std::uint64_t unit = text.front() == 'K' ? 1024 : text.front() == 'M' ? 1024 * 1024 : 0;
    if (unit == 0 || *size > 64 * 1024 * 1024 / unit)
        return std::nullopt;
    text.remove_prefix(1);
    test.block = static_cast<std::uint32_t>(*size * unit);
    text = trim(text);
    if (!take_prefix(text, "Q"))
        return std::nullopt;
    const auto depth = take_number(text);
    if (!depth || *depth > 1024 || !take_prefix(text, "T"))
        return std::nullopt;
    const auto threads = take_number(text);
    if (!threads || *threads > 64 || !text.empty())
        return std::nullopt;
    test.queue_depth = static_cast<unsigned>(*depth);
    test.threads = static_cast<unsigned>(*threads);
    return test;
}

std::optional<std::vector<ProfileTest>> parse_profile_tests(std::string_view text)
{
    std::vector<ProfileTest> tests;
    while (!trim(text).empty()) {
        const std::size_t comma = text.find(',');
        const auto test = parse_profile_test(text.substr(0, comma));
        if (!test)
            return std::nullopt;
        tests.push_back(*test);
        if (comma == std::string_view::npos)
            break;
        text.remove_prefix(comma + 1);
    }
    if (tests.empty())
        return std::nullopt;
    return tests;
}

std::string_view preset_tests(std::string_view preset)
{
    return contract::profile_preset_tests(preset);
}

std::vector<std::string_view> profile_presets()
{
    std::vector<std::string_view> names;
    for (const contract::ProfilePreset& p : contract::profile_presets)
        names.push_back(p.name);
    return names;
}

} // namespace diskbench::engine::benchmarks
