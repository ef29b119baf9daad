// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contract/failure_messages.hpp"

#include <optional>
#include <string>

namespace diskbench::client {

// A failure the daemon reported (a refusal, a failed job) in the user's
// language. From a daemon of API 0.16 on, `failure` holds it as data (the
// a{sv} after a refusal's message, Job.Failure): its catalogue format is
// translated through gettext and rendered with its arguments, nested
// failures translated in turn, numbers in the locale's notation; `english`
// (what the daemon wrote) when this client does not know the id (a newer
// daemon) or the arguments do not fit.
//
// Without it (an older daemon), the format is found by matching `english`
// against the catalogue (contract/failure_matching.hpp: literal parts
// exactly, each argument a non-empty run of text, the format with the most
// literal text winning, a leading "key: " kept as it is); a text no format
// matches (another service's error), and one past the matcher's bound on
// its work, is shown as it came.
std::string localized_failure_text(const std::string& english,
                                   const std::optional<contract::FailureReport>& failure = std::nullopt);

} // namespace diskbench::client
