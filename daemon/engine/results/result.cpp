// SPDX-License-Identifier: GPL-3.0-or-later
#include "result.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

namespace diskbench::engine {

std::string_view style_name(SeriesStyle style) noexcept
{
    switch (style) {
    case SeriesStyle::Line:
        return "line";
    case SeriesStyle::Bar:
        return "bar";
    case SeriesStyle::Scatter:
        return "scatter";
    }
    return "line";
}

namespace {

// The message's id and arguments as plain text, for a message the catalogue
// cannot render.
std::string raw_text(const contract::Message& message)
{
    std::string text = message.id;
    for (const contract::MessageArg& arg : message.args) {
        text += text.size() == message.id.size() ? ": " : ", ";
        text += arg.name + '=';
        std::visit(
            [&text](const auto& value) {
                if constexpr (std::is_same_v<std::decay_t<decltype(value)>, std::string>)
                    text += value;
                else
                    text += std::to_string(value);
            },
            arg.value);
    }
    return text;
}

// Never throws for a message the catalogue cannot render (an id it lacks, an
// argument left out): that is a bug in the daemon, found by the catalogue's
// tests, but if one slipped through it must cost a translated sentence, not
// the job, which this runs inside (a benchmark's thread, or JobObject's
// finish() before it signals Completed).
void add_message(std::vector<std::string>& texts, std::vector<contract::Message>& messages, contract::Message message)
{
    std::string text;
    try {
        text = contract::english_text(message);
    } catch (const std::invalid_argument&) {
        text = raw_text(message);
    }
    if (std::find(texts.begin(), texts.end(), text) != texts.end())
        return;
    texts.push_back(std::move(text));
    messages.push_back(std::move(message));
}

} // namespace

void add_warning(Result& result, contract::Message message)
{
    add_message(result.warnings, result.warning_messages, std::move(message));
}

void add_note(Result& result, contract::Message message)
{
    add_message(result.notes, result.note_messages, std::move(message));
}

} // namespace diskbench::engine
