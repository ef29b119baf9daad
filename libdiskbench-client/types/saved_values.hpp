// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::client {

// Typed reads of the daemon's a{sv} maps (parameters, summaries, device
// facts) as SavedValueMap holds them; missing keys or other types give the
// fallback. Integers and numbers convert into each other. Keys are
// string_views so a summary's are read by the contract's names
// (contract/kinds/).
// An integer or a number as a double; nothing for other types.
std::optional<double> as_number(const SavedValue& value);
std::int64_t integer_of(const SavedValueMap& map, std::string_view key, std::int64_t fallback = 0);
double number_of(const SavedValueMap& map, std::string_view key, double fallback);
bool boolean_of(const SavedValueMap& map, std::string_view key, bool fallback);
std::string text_of(const SavedValueMap& map, std::string_view key, const std::string& fallback = {});
// Whether `map` has `key`, of any type.
bool has_key(const SavedValueMap& map, std::string_view key);

// The profile benchmark's tests: "SEQ1M Q8T1, RND4K Q1T1" split at commas,
// and the tests of the daemon's presets (engine/benchmarks/profile).
std::vector<std::string> split_profile_tests(const std::string& list);
std::string profile_preset_tests(const std::string& preset);
// A profile test's prefix of its summary keys: "SEQ1M Q8T1" ->
// "seq1m_q8t1" (contract/kinds/test_keys.hpp's test_name, as the engine
// names them), as in "seq1m_q8t1.throughput_mb_s".
std::string profile_summary_key(std::string_view test);
// The tests a run does: `tests` when given, else its preset's.
std::string profile_tests_of(const SavedValueMap& parameters);
// The y of series `name` at x = `test`, a test's index (the bars of the
// Profiles pages); nothing when it has none. A file may hold any x: only
// whole indices count.
std::optional<double> point_at_test(const std::vector<SavedSeries>& series, std::string_view name, std::size_t test);

} // namespace diskbench::client
