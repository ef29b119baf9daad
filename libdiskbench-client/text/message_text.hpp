// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contract/messages.hpp"

#include <string>
#include <vector>

namespace diskbench::client {

// The daemon's warnings and notes in the user's language: each of `lines`
// (a subset of `texts`, the English Job.Warnings or Job.Notes) rendered from
// its catalogue message (Job.WarningMessages, one per text) through gettext,
// with numbers in the locale's notation (a Czech decimal comma). A line
// without a message (an older daemon) or with an id this client does not
// know (a newer daemon) stays as the daemon wrote it.
std::vector<std::string> localized_lines(const std::vector<std::string>& lines, const std::vector<std::string>& texts,
                                         const std::vector<contract::Message>& messages);

// One message in the user's language (`english` when the id is unknown).
std::string localized_message(const contract::Message& message, const std::string& english);

// A number with `decimals` decimals in LC_NUMERIC's notation.
std::string locale_number_text(double value, int decimals);

} // namespace diskbench::client
