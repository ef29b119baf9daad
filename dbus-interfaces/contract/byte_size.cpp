// SPDX-License-Identifier: GPL-3.0-or-later
#include "byte_size.hpp"

#include <glib.h>

#include <cstdint>
#include <limits>
#include <numeric>

namespace diskbench::contract {

namespace {

constexpr std::uint64_t largest = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && g_ascii_isspace(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && g_ascii_isspace(text.back()))
        text.remove_suffix(1);
    return text;
}

bool same_words(std::string_view a, std::string_view b)
{
    // g_utf8_casefold so translated names ("ГиБ") match in either case.
    if (a.empty() || b.empty())
        return false;
    gchar* folded_a = g_utf8_casefold(a.data(), static_cast<gssize>(a.size()));
    gchar* folded_b = g_utf8_casefold(b.data(), static_cast<gssize>(b.size()));
    const bool same = g_strcmp0(folded_a, folded_b) == 0;
    g_free(folded_a);
    g_free(folded_b);
    return same;
}

// The power of 1024 a unit stands for, or nothing.
std::optional<unsigned> unit_power(std::string_view unit, const ByteUnitNames& names)
{
    if (unit.empty())
        return 0;
    static constexpr std::string_view letters = "kmgt";
    for (unsigned power = 1; power <= 4; ++power) {
        const char letter = letters[power - 1];
        const std::string short_name(1, letter);
        if (same_words(unit, short_name) || same_words(unit, short_name + "ib"))
            return power;
    }
    for (unsigned power = 0; power < names.size(); ++power)
        if (same_words(unit, names[power]) || same_words(unit, english_byte_units[power]))
            return power;
    return std::nullopt;
}

} // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text, const ByteUnitNames& names)
{
    text = trimmed(text);
    // The number: digits, then optionally a dot and more digits. Parsed by
    // hand into a whole part and a decimal fraction (up to 18 digits), so
    // whether "0.1 KiB" is a whole number of bytes is decided exactly.
    std::size_t at = 0;
    std::uint64_t whole = 0;
    while (at < text.size() && g_ascii_isdigit(text[at])) {
        const unsigned digit = static_cast<unsigned>(text[at] - '0');
        if (whole > (largest - digit) / 10)
            return std::nullopt;
        whole = whole * 10 + digit;
        ++at;
    }
    if (at == 0)
        return std::nullopt; // no sign, no leading dot
    std::uint64_t fraction = 0, fraction_scale = 1;
    if (at < text.size() && text[at] == '.') {
        ++at;
        const std::size_t first = at;
        while (at < text.size() && g_ascii_isdigit(text[at])) {
            if (fraction_scale < 1'000'000'000'000'000'000ULL) {
                fraction = fraction * 10 + static_cast<unsigned>(text[at] - '0');
                fraction_scale *= 10;
            } else if (text[at] != '0') {
                return std::nullopt; // more digits than any byte count needs
            }
            ++at;
        }
        if (at == first)
            return std::nullopt;
    }
    const auto power = unit_power(trimmed(text.substr(at)), names);
    if (!power)
        return std::nullopt;
    const unsigned shift = 10 * *power;
    if (whole > (largest >> shift))
        return std::nullopt;
    std::uint64_t bytes = whole << shift;
    if (fraction != 0) {
        // fraction / fraction_scale of 2^shift bytes must be whole bytes: in
        // lowest terms the denominator must divide 2^shift, and then the
        // bytes are fraction · (2^shift / denominator), below 2^shift.
        const std::uint64_t common = std::gcd(fraction, fraction_scale);
        const std::uint64_t numerator = fraction / common, denominator = fraction_scale / common;
        const std::uint64_t unit = std::uint64_t { 1 } << shift;
        if (unit % denominator != 0)
            return std::nullopt;
        const std::uint64_t extra = numerator * (unit / denominator);
        if (extra > largest - bytes)
            return std::nullopt;
        bytes += extra;
    }
    return bytes;
}

std::string byte_size_text(std::uint64_t bytes, const ByteUnitNames& names)
{
    for (unsigned power = 4; power >= 1; --power) {
        const std::uint64_t unit = std::uint64_t { 1 } << (10 * power);
        if (bytes < unit)
            continue;
        const std::uint64_t whole = bytes / unit, rest = bytes % unit;
        if (rest == 0)
            return std::to_string(whole) + " " + std::string(names[power]);
        // Hundredths exactly, or try the next smaller unit.
        const std::uint64_t hundredths = rest * 100; // rest < 2^40
        if (hundredths % unit != 0)
            continue;
        const auto cents = static_cast<unsigned>(hundredths / unit);
        std::string digits = cents % 10 == 0 ? std::to_string(cents / 10) : (cents < 10 ? "0" : "") + std::to_string(cents);
        return std::to_string(whole) + "." + digits + " " + std::string(names[power]);
    }
    return std::to_string(bytes) + " " + std::string(names[0]);
}

} // namespace diskbench::contract
