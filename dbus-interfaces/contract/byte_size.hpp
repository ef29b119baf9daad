// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Byte counts as people write them: "1 GiB", "512 MiB", "4k", "1.5G".
// One parser and one formatter for both clients (diskbenchctl's size=1G and
// the app's size fields), so the two accept and show the same things.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace diskbench::contract {

// The unit names from bytes to TiB, powers of 1024 apart. The app passes its
// translated names ("ГиБ") so that what it shows can be typed back.
using ByteUnitNames = std::array<std::string_view, 5>;
inline constexpr ByteUnitNames english_byte_units = { "B", "KiB", "MiB", "GiB", "TiB" };

// A whole number of bytes from "4096", "4k", "4 KiB", "1G", "1 GiB",
// "1.5 GiB", "512 MiB", "2 TiB", "100 B": a number (a dot for decimals),
// optional blanks, then optionally a unit: k/K, m/M, g/G, t/T alone or with
// "iB", or one of `names` (matched case-insensitively). Nothing for
// anything else: no sign, no SI "GB" (ambiguous: 10^9 or 2^30), no
// fractions of a byte, nothing beyond the largest int64 (the result file
// keeps integers as int64).
std::optional<std::uint64_t> parse_byte_size(std::string_view text, const ByteUnitNames& names = english_byte_units);

// The exact size in the largest unit it reads well in: "1 GiB", "1.5 GiB",
// "4 KiB", "1000000 B" (at most two decimals; otherwise a smaller unit, so
// parse_byte_size() gives the same number back).
std::string byte_size_text(std::uint64_t bytes, const ByteUnitNames& names = english_byte_units);

} // namespace diskbench::contract
