// SPDX-License-Identifier: GPL-3.0-or-later
#include "parameter_choices.hpp"

#include "text/value_format.hpp"
#include "text/parameter_labels.hpp"

#include <algorithm>

namespace diskbench::client {

std::string choice_label(const ParameterInfo& info, const SavedValue& value)
{
    if (const auto* text = std::get_if<std::string>(&value))
        return choice_word_label(info.key, *text);
    if (const auto* integer = std::get_if<std::int64_t>(&value))
        return is_byte_parameter(info) && *integer >= 0 ? size_text(static_cast<std::uint64_t>(*integer))
                                                        : std::to_string(*integer);
    if (const auto* number = std::get_if<double>(&value))
        return format_value(*number, Unit::Plain);
    if (const auto* flag = std::get_if<bool>(&value))
        return *flag ? "true" : "false";
    return {};
}

std::vector<SavedValue> offered_values(const ParameterInfo& info, const SavedValue& current)
{
    std::vector<SavedValue> values = info.choices;
    if (std::find(values.begin(), values.end(), current) == values.end())
        values.push_back(current);
    return values;
}

} // namespace diskbench::client
