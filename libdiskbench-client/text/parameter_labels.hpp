// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the settings form names a parameter and its values for people:
// "Test area" for region_size, "1 GiB" for 1073741824, "Keep the data" for
// mode=preserve. The daemon's keys and words stay what busctl users type;
// these are the app's translated words for them. No GTK here, so tests
// check every key the daemon lists has one.

#include "types/daemon_types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::client {

// The label of a parameter key ("Test area"), translated; the key itself
// for a key the table lacks (a newer daemon's), so nothing is hidden.
std::string parameter_label(std::string_view key);
[[nodiscard]] bool has_parameter_label(std::string_view key);
// Every key the table knows (for the tests).
std::vector<std::string_view> labelled_parameter_keys();

// The daemon's help of a parameter (ListBenchmarks' description, English
// for busctl) in the user's language. The English text is the message id:
// po/meson.build extracts it from the engine's own sources, so a daemon of
// this version is translated whole; a help this catalogue lacks (another
// version's) is shown as the daemon wrote it.
std::string parameter_help(const std::string& english);

// Whether a parameter is a number of bytes: the daemon says so for those
// with offered sizes (ListParameterChoices unit "bytes"), the table for the
// rest (the daemon publishes no unit for them).
[[nodiscard]] bool is_byte_parameter(const ParameterInfo& info);
[[nodiscard]] bool is_byte_parameter_key(std::string_view key);

// How a fixed word reads in a drop-down ("preserve" → "Keep the data"),
// translated; the word itself when it is a name (io_uring) or unknown.
std::string choice_word_label(std::string_view key, std::string_view word);
// Whether the table has decided on `word` of `key` (a label, or "shown as
// written"): the tests ask it for every word the daemon offers.
[[nodiscard]] bool has_choice_word(std::string_view key, std::string_view word);

// A byte count with the translated unit names: "1 GiB", "1.5 GiB" (always
// a dot, so it can be typed back), "1 ГиБ" in Russian.
std::string size_text(std::uint64_t bytes);

// What a size field shows: size_text(), or "" for 0 when the key gives 0 a
// meaning (zero_meaning(), shown as the field's placeholder instead).
std::string size_field_text(std::string_view key, std::uint64_t bytes);
// What 0 means for `key` ("Device's block size"), translated, or "".
std::string zero_meaning(std::string_view key);

// A size field's text read back: the value, or the inline error to show
// (not a size; outside the range the daemon gives, when it gives one).
struct SizeInput {
    std::optional<std::int64_t> value;
    std::string error; // translated; empty when `value` is set
};
SizeInput read_size_field(const ParameterInfo& info, std::string_view text);

} // namespace diskbench::client
