// SPDX-License-Identifier: GPL-3.0-or-later
#include "parameter_values.hpp"

#include "text/printf_text.hpp"

#include "contract/byte_size.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace diskbench::cli {

namespace {

using client::printf_text;

// Whole numbers with the binary suffixes the app accepts too (4k, 1G,
// "512 MiB", 1.5G): one parser for both clients (contract/byte_size).
std::optional<std::int64_t> unsigned_value(const std::string& text)
{
    if (text.empty() || !g_ascii_isdigit(text.front()))
        return std::nullopt; // no sign, no leading blanks: "-1" must not wrap around
    const auto bytes = contract::parse_byte_size(text);
    if (!bytes)
        return std::nullopt;
    return static_cast<std::int64_t>(*bytes); // at most int64's largest (the result file's JSON integers)
}

std::optional<double> number_value(const std::string& text)
{
    if (text.empty() || g_ascii_isspace(text.front()))
        return std::nullopt;
    char* end = nullptr;
    // g_ascii_strtod: a dot is the decimal point whatever the locale.
    const double number = g_ascii_strtod(text.c_str(), &end);
    if (*end != '\0' || !std::isfinite(number))
        return std::nullopt;
    return number;
}

std::optional<bool> boolean_value(const std::string& text)
{
    const std::unique_ptr<gchar, decltype(&g_free)> lower(g_ascii_strdown(text.c_str(), -1), g_free);
    const std::string word = lower.get();
    if (word == "true" || word == "yes" || word == "on" || word == "1")
        return true;
    if (word == "false" || word == "no" || word == "off" || word == "0")
        return false;
    return std::nullopt;
}

// C++20: compiles whether or not ParameterInfo has `choices` yet (the API
// gains them separately); without the member there are none.
template <typename P> std::vector<std::string> choices_of(const P& parameter)
{
    if constexpr (requires { parameter.choices; }) {
        std::vector<std::string> texts;
        for (const auto& choice : parameter.choices) {
            if constexpr (std::is_convertible_v<decltype(choice), std::string>)
                texts.emplace_back(choice);
            else
                texts.push_back(value_text(choice));
        }
        return texts;
    } else {
        return {};
    }
}

} // namespace

std::vector<std::string> parameter_choices(const ParameterInfo& parameter)
{
    return choices_of(parameter);
}

std::string value_text(const SavedValue& value)
{
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<T, std::int64_t>)
                return std::to_string(v);
            else if constexpr (std::is_same_v<T, double>) {
                char buffer[G_ASCII_DTOSTR_BUF_SIZE];
                return g_ascii_formatd(buffer, sizeof buffer, "%g", v);
            } else
                return v;
        },
        value);
}

std::optional<SavedValue> typed_value(const ParameterInfo& parameter, const std::string& text, std::string& error)
{
    std::optional<SavedValue> value;
    const char* expected = nullptr;
    if (parameter.type == "unsigned") {
        if (auto number = unsigned_value(text))
            value = *number;
        expected = _("a whole number (suffixes k, M, G, T multiply by powers of 1024)");
    } else if (parameter.type == "number") {
        if (auto number = number_value(text))
            value = *number;
        expected = _("a number");
    } else if (parameter.type == "boolean") {
        if (auto flag = boolean_value(text))
            value = *flag;
        expected = _("true or false");
    } else if (parameter.type == "string") {
        value = text;
    } else {
        error = printf_text(_("%s: the daemon gives it a type this client does not know (%s)"), parameter.key.c_str(),
                            parameter.type.c_str());
        return std::nullopt;
    }
    if (!value) {
        error = printf_text(_("%s: “%s” is not %s"), parameter.key.c_str(), text.c_str(), expected);
        return std::nullopt;
    }
    // Only an exclusive list refuses other values; offered sizes (file_size)
    // are suggestions, and the daemon takes any size in range.
    const std::vector<std::string> choices = parameter.exclusive ? parameter_choices(parameter) : std::vector<std::string>();
    if (!choices.empty() && std::find(choices.begin(), choices.end(), value_text(*value)) == choices.end()) {
        std::string list;
        for (const std::string& choice : choices)
            list += (list.empty() ? "" : ", ") + choice;
        error = printf_text(_("%s: “%s” is not one of %s"), parameter.key.c_str(), text.c_str(), list.c_str());
        return std::nullopt;
    }
    return value;
}

std::optional<SavedValueMap> typed_options(const BenchmarkInfo& benchmark, const std::vector<std::string>& assignments,
                                           std::optional<std::string> passes, std::string& error)
{
    auto find = [&](const std::string& key) -> const ParameterInfo* {
        for (const ParameterInfo& parameter : benchmark.parameters)
            if (parameter.key == key)
                return &parameter;
        return nullptr;
    };
    SavedValueMap options;
    auto add = [&](const std::string& key, const std::string& text) {
        const ParameterInfo* parameter = find(key);
        if (!parameter) {
            std::string keys;
            for (const ParameterInfo& p : benchmark.parameters)
                keys += (keys.empty() ? "" : ", ") + p.key;
            error = printf_text(_("%s has no parameter “%s” (it has: %s)"), benchmark.kind.c_str(), key.c_str(),
                                keys.c_str());
            return false;
        }
        if (options.count(key)) {
            error = printf_text(_("%s is given twice"), key.c_str());
            return false;
        }
        auto value = typed_value(*parameter, text, error);
        if (!value)
            return false;
        options.emplace(key, std::move(*value));
        return true;
    };
    for (const std::string& assignment : assignments) {
        const auto equals = assignment.find('=');
        if (equals == std::string::npos || equals == 0) {
            error = printf_text(_("“%s” is not KEY=VALUE"), assignment.c_str());
            return std::nullopt;
        }
        if (!add(assignment.substr(0, equals), assignment.substr(equals + 1)))
            return std::nullopt;
    }
    if (passes) {
        if (!find("passes")) {
            error = printf_text(_("%s does not take --passes (it has no “passes” parameter)"), benchmark.kind.c_str());
            return std::nullopt;
        }
        if (!add("passes", *passes))
            return std::nullopt;
    }
    return options;
}

} // namespace diskbench::cli
