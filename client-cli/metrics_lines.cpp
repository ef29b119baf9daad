// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics_lines.hpp"

#include <glib.h>

#include <algorithm>
#include <array>
#include <vector>

namespace diskbench::cli {

namespace {

constexpr std::string_view metric_prefix = "diskbench_";
constexpr std::string_view end_line = "# EOF";

bool is_letter(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

// A whole metric name of ours: diskbench_ then [A-Za-z0-9_:]+ (the
// OpenMetrics name characters; the prefix already starts it well).
bool is_our_metric_name(std::string_view name)
{
    if (!name.starts_with(metric_prefix) || name.size() == metric_prefix.size())
        return false;
    return std::all_of(name.begin(), name.end(), [](char c) { return is_letter(c) || is_digit(c) || c == ':'; });
}

// Takes a metric name off the front of TEXT (up to a space or "{").
std::string_view take_name(std::string_view& text)
{
    const auto end = std::min(text.find_first_of(" {"), text.size());
    const std::string_view name = text.substr(0, end);
    text.remove_prefix(end);
    return name;
}

// An escaped string up to (not including) the next unescaped quote, or to
// the end when UNTIL_QUOTE is false; TEXT is advanced past what was read.
// A bare backslash, a line feed (never here: lines are split on it) or,
// in a quoted value, a bare quote ends it as not escaped.
bool take_escaped(std::string_view& text, bool until_quote)
{
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '"') {
            if (until_quote)
                break;
            return false;
        }
        if (c == '\\') {
            if (i + 1 >= text.size() || (text[i + 1] != '\\' && text[i + 1] != '"' && text[i + 1] != 'n'))
                return false;
            ++i;
        }
    }
    if (until_quote && i >= text.size())
        return false;
    text.remove_prefix(i);
    return true;
}

// {name="value",...}; TEXT starts at "{" and is advanced past "}".
bool take_labels(std::string_view& text)
{
    text.remove_prefix(1);
    std::vector<std::string_view> names;
    if (!text.empty() && text.front() == '}') {
        text.remove_prefix(1);
        return true;
    }
    while (true) {
        std::size_t end = 0;
        while (end < text.size() && (is_letter(text[end]) || (end > 0 && is_digit(text[end]))))
            ++end;
        const std::string_view name = text.substr(0, end);
        // "__name__" and the other reserved labels could rename or
        // relabel the series in a scraper: never ours.
        if (name.empty() || name.starts_with("__") || std::find(names.begin(), names.end(), name) != names.end())
            return false;
        names.push_back(name);
        text.remove_prefix(end);
        if (!text.starts_with("=\""))
            return false;
        text.remove_prefix(2);
        if (!take_escaped(text, true))
            return false;
        text.remove_prefix(1); // the closing quote
        if (text.starts_with("}")) {
            text.remove_prefix(1);
            return true;
        }
        if (!text.starts_with(","))
            return false;
        text.remove_prefix(1);
    }
}

bool equals_ignoring_case(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && g_ascii_strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// OpenMetrics' realnumber: [sign] digits [. digits] [e [sign] digits]
// with at least one digit before the exponent, or (SPECIAL) [sign] inf,
// [sign] infinity, nan, in any case.
bool is_number(std::string_view text, bool special)
{
    const bool signed_ = !text.empty() && (text.front() == '+' || text.front() == '-');
    if (signed_)
        text.remove_prefix(1);
    if (special
        && (equals_ignoring_case(text, "inf") || equals_ignoring_case(text, "infinity")
            || (!signed_ && equals_ignoring_case(text, "nan"))))
        return true;
    std::size_t i = 0, digits = 0;
    for (; i < text.size() && is_digit(text[i]); ++i)
        ++digits;
    if (i < text.size() && text[i] == '.')
        for (++i; i < text.size() && is_digit(text[i]); ++i)
            ++digits;
    if (digits == 0)
        return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
            ++i;
        const std::size_t exponent_start = i;
        while (i < text.size() && is_digit(text[i]))
            ++i;
        if (i == exponent_start)
            return false;
    }
    return i == text.size();
}

// NAME[{labels}] VALUE[ TIMESTAMP]
bool is_sample(std::string_view line)
{
    if (!is_our_metric_name(take_name(line)))
        return false;
    if (line.starts_with("{") && !take_labels(line))
        return false;
    if (!line.starts_with(" "))
        return false;
    line.remove_prefix(1);
    const auto space = line.find(' ');
    if (space == std::string_view::npos)
        return is_number(line, true);
    return is_number(line.substr(0, space), true) && is_number(line.substr(space + 1), false);
}

// "# HELP NAME text", "# TYPE NAME type", "# UNIT NAME unit".
bool is_metadata(std::string_view line)
{
    static constexpr std::array<std::string_view, 4> types { "counter", "gauge", "histogram", "summary" };
    for (const std::string_view keyword : { "# HELP ", "# TYPE ", "# UNIT " }) {
        if (!line.starts_with(keyword))
            continue;
        line.remove_prefix(keyword.size());
        if (!is_our_metric_name(take_name(line)) || !line.starts_with(" "))
            return false;
        line.remove_prefix(1);
        if (keyword == "# HELP ")
            return take_escaped(line, false) && line.empty();
        if (keyword == "# TYPE ")
            return std::find(types.begin(), types.end(), line) != types.end();
        return !line.empty() && std::all_of(line.begin(), line.end(), [](char c) {
            return is_letter(c) || is_digit(c) || c == ':';
        });
    }
    return false;
}

} // namespace

std::size_t first_refused_metrics_line(std::string_view text)
{
    std::size_t number = 1;
    while (!text.empty()) {
        const auto feed = text.find('\n');
        if (feed == std::string_view::npos)
            return number; // the last line is cut short
        const std::string_view line = text.substr(0, feed);
        text.remove_prefix(feed + 1);
        // g_utf8_validate with a length refuses NUL bytes too.
        if (!g_utf8_validate(line.data(), static_cast<gssize>(line.size()), nullptr))
            return number;
        const bool accepted = line == end_line       ? text.empty()
                              : line.starts_with("#") ? is_metadata(line)
                                                      : is_sample(line);
        if (!accepted)
            return number;
        if (line == end_line)
            return 0;
        ++number;
    }
    return number; // no "# EOF" at the end
}

} // namespace diskbench::cli
