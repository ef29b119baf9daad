// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace diskbench::client {

// A failure the daemon reported (a D-Bus error's message, Job.ErrorMessage)
// in the user's language. The daemon sends the English of a message of its
// failure catalogue (contract/failure_messages.hpp); the catalogue format it
// was rendered from is found by matching (contract/failure_matching.hpp:
// literal parts exactly, each argument a non-empty run of text, the format
// with the most literal text winning, a leading "key: " kept as it is),
// then translated through gettext and rendered with the same arguments,
// numbers in the locale's notation. A text no format matches (an older or
// newer daemon, another service's error), and one past the matcher's bound
// on its work (a crafted parameter value echoed back), is shown as it came.
std::string localized_failure_text(const std::string& english);

} // namespace diskbench::client
