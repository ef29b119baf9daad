// SPDX-License-Identifier: GPL-3.0-or-later
#include "result.hpp"

#include <algorithm>

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

void add_message(std::vector<std::string>& texts, std::vector<contract::Message>& messages, contract::Message message)
{
    std::string text = contract::english_text(message);
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
