// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "messages.hpp"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::contract {

// Reading a failure's id and arguments back from the English text the
// daemon sent (failure_messages.hpp): the clients' fallback for a daemon
// older than API 0.16, which sends the text alone. From 0.16 on the
// failure comes as data beside it (sdbus_types/failure_data.hpp).
//
// The rule: each catalogue format is a pattern whose literal parts must
// match exactly and whose "{name}" or "{name:.Nf}" each match a non-empty
// run of text (the shortest that lets the rest match; a name used twice
// must capture the same text twice). The text may start with "key: "
// prefixes (lower-case letters, digits, '_' and '.' before ": "): a
// ParameterError's parameter key, or the service's "directory: ", which
// are kept as they are. Of all the formats that match, the one with the
// most literal characters wins (a prefix's ": " counting as two, and a
// nested argument's text (nested_failure_arguments()) adding its own best
// match's count), so a generic format such as "{target}: {detail}" cannot
// take the text of a specific one, nor a wrapped failure's format the
// explanation around it; on a tie the match with more literal characters
// of its own (a key prefix and a format rather than "{target}: {detail}"
// around that format), then the catalogue's order decides (the tests keep
// the catalogue free of ties for its own texts).
struct FailureMatch {
    std::string prefix; // "key: " parts, as they were
    std::string_view id;
    std::vector<MessageArg> args; // each as the text captured
    std::size_t literal_chars = 0; // the score above, nested matches included
};

//
// The matching backtracks over every format, up to max_depth "key: "
// prefixes and nested failures; a text made for it (a parameter's value
// echoed in "error-not-a-choice" with many ": " and copies of the formats'
// literal parts) would make that polynomial of high degree in its length,
// seconds to minutes of a client's CPU before it shows the refusal. So the
// work has a hard bound: a text longer than max_matched_failure_bytes is
// not matched at all, and a match that has taken failure_match_budget
// steps (a step: trying a part of a format, one comparison or search, and
// one more for every 64 characters it read) gives up, within milliseconds.
// Either way it is as if no format matched: the text stays in English,
// intact. Real failures (paths of PATH_MAX, a 4096-byte parameter text)
// stay far below both; the tests keep it so.
inline constexpr std::size_t max_matched_failure_bytes = 32 * 1024;
inline constexpr std::size_t failure_match_budget = 1'000'000;

// What one match cost, for the tests of the bound above.
struct MatchCost {
    std::size_t steps = 0;
    bool gave_up = false; // past one of the limits: no match
};

std::optional<FailureMatch> match_failure(std::string_view text, MatchCost* cost = nullptr);

// The arguments `text` gives one format (the rule above, no prefixes), or
// nothing when it does not match; and how many literal characters it has.
std::optional<std::vector<MessageArg>> match_failure_format(std::string_view format, std::string_view text,
                                                            MatchCost* cost = nullptr);
std::size_t failure_format_literal_chars(std::string_view format);

// `english` in the user's language: the matched format through
// `translate` (gettext), rendered with the captured arguments; a captured
// "{name:.Nf}" that reads as a number is written again with `number_text`
// (a Czech decimal comma), and a nested argument
// (nested_failure_arguments()) is translated the same way. A text no
// format matches (an older or newer daemon, a failure outside the
// catalogue), and one past the bound above, stays as it is.
std::string localized_failure(std::string_view english, const std::function<const char*(const char*)>& translate,
                              const NumberText& number_text, MatchCost* cost = nullptr);

} // namespace diskbench::contract
