// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

namespace diskbench::contract {

// The one rule for the word that confirms erasing a device (StartBenchmark's
// "confirm" with mode=destroy). The word itself is the daemon's to choose
// and it publishes it (Device.EraseConfirmation); both sides only agree on
// how typed text is compared with it.

// `text` without the spaces, tabs and line ends around it: drives pad their
// serials, and a pasted word often brings a line end.
std::string_view without_blanks_around(std::string_view text) noexcept;

// Whether `typed` confirms `expected`: equal once the blanks around both are
// gone, and never for an empty word.
bool confirmation_matches(std::string_view typed, std::string_view expected) noexcept;

} // namespace diskbench::contract
