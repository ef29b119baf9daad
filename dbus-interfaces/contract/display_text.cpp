// SPDX-License-Identifier: GPL-3.0-or-later
#include "display_text.hpp"

#include <fmt/format.h>

#include <cstdint>

namespace diskbench::contract {

namespace {

bool continuation(unsigned char byte)
{
    return (byte & 0xC0) == 0x80;
}

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no
// overlong forms, no surrogates, nothing past U+10FFFF) whose code point
// sd-bus accepts; 0 when there is none.
std::size_t valid_sequence(std::string_view text, std::size_t i)
{
    const auto at = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
    const unsigned char lead = at(0);
    std::size_t length = 0;
    unsigned char low = 0x80, high = 0xBF; // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            low = 0xA0; // overlong
        if (lead == 0xED)
            high = 0x9F; // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            low = 0x90; // overlong
        if (lead == 0xF4)
            high = 0x8F; // past U+10FFFF
    } else {
        return 0;
    }
    if (i + length > text.size() || at(1) < low || at(1) > high)
        return 0;
    for (std::size_t k = 2; k < length; ++k)
        if (!continuation(at(k)))
            return 0;
    std::uint32_t code = lead & (0xFF >> (length + 1));
    for (std::size_t k = 1; k < length; ++k)
        code = (code << 6) | (at(k) & 0x3F);
    // Noncharacters: sd-bus refuses them (stricter than the D-Bus spec).
    if ((code >= 0xFDD0 && code <= 0xFDEF) || (code & 0xFFFE) == 0xFFFE)
        return 0;
    return length;
}

// U+0080..U+009F, encoded as C2 80..C2 9F.
bool is_c1(std::string_view text, std::size_t i)
{
    return static_cast<unsigned char>(text[i]) == 0xC2 && i + 1 < text.size()
        && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
}

} // namespace

std::string display_text(std::string_view text, Controls controls)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\\') {
            out += "\\\\";
            ++i;
        } else if (byte < 0x20 || byte == 0x7F) {
            out += fmt::format("\\x{:02x}", byte);
            ++i;
        } else if (byte < 0x80) {
            out += static_cast<char>(byte);
            ++i;
        } else if (const std::size_t length = valid_sequence(text, i);
                   length > 0 && !(controls == Controls::C0AndC1 && is_c1(text, i))) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += fmt::format("\\x{:02x}", byte);
            ++i;
        }
    }
    return out;
}

} // namespace diskbench::contract
