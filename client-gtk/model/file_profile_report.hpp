// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Profiles page of a folder (file-profile) as CrystalDiskMark users
// know it: a row per test with its Read and Write figures, filled in as each
// test ends. (Its text, for forum posts, is libdiskbench-client's
// crystal_report.) No GTK here, so the tests check it directly.

#include "types/result_types.hpp"

#include <optional>
#include <string>
#include <vector>

namespace diskbench::client {

// One direction of one test: MB/s as soon as the test has ended (from the
// run's "read"/"write" series), the rest once the summary is there.
struct FileProfileFigures {
    std::optional<double> mb_s, iops, mean_us, p50_us, p99_us, p99_9_us;
};

struct FileProfileRow {
    std::string test; // "SEQ1M Q8T1", "MIX RND4K Q1T1"
    FileProfileFigures read, write;
};

// The tests a run does, in order: the summary's list once the run has
// ended, before that what its parameters ask for (preset or tests, then
// the mixed test).
std::vector<std::string> file_profile_tests(const SavedValueMap& parameters, const SavedValueMap& summary);

// The grid of `result` (a live job's or a saved one): a row per test.
std::vector<FileProfileRow> file_profile_rows(const SavedResult& result);

} // namespace diskbench::client
