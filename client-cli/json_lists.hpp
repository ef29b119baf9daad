// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"

#include <string>
#include <vector>

namespace diskbench::cli {

struct HistoryEntry;

// --json of the listing commands. Results themselves are printed with the
// contract's result_to_json (the app's file format); these are the lists
// around them, built with json-glib too.
std::string devices_json(const std::vector<client::DeviceEntry>& devices);
std::string benchmarks_json(const std::vector<client::BenchmarkInfo>& benchmarks);
std::string jobs_json(const std::vector<client::JobEntry>& jobs);
// history: the file and the facts a script picks a result by.
std::string history_json(const std::vector<std::pair<std::string, const client::SavedResult*>>& results);
// compare: per summary key [a, b] (null where one lacks it).
std::string comparison_json(const client::SavedResult& a, const client::SavedResult& b);

} // namespace diskbench::cli
