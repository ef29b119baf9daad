// SPDX-License-Identifier: GPL-3.0-or-later
#include "confirmation.hpp"

namespace diskbench::contract {

std::string_view without_blanks_around(std::string_view text) noexcept
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

bool confirmation_matches(std::string_view typed, std::string_view expected) noexcept
{
    const std::string_view word = without_blanks_around(expected);
    return !word.empty() && without_blanks_around(typed) == word;
}

} // namespace diskbench::contract
