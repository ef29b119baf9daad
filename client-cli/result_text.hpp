// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/result_report.hpp"
#include "types/daemon_types.hpp"

#include <string>
#include <utility>
#include <vector>

namespace diskbench::cli {

using client::SavedResult;

// A result as the terminal shows it: the app's words (result_report.hpp:
// headline, named figures with units, the checks, the device line), with
// `keys` also the raw summary keys as a key/value table.
std::string result_summary_text(const SavedResult& result, bool keys = false);

// Two results side by side: every summary key either has, with the change
// from A to B in percent where both are numbers. With a set on either side
// (run_set.hpp), each run against the other side's run of the same kind.
std::string comparison_text(const SavedResult& a, const SavedResult& b);
// Those pairs of runs: a set's members, or the result itself, by kind.
std::vector<std::pair<const SavedResult*, const SavedResult*>> paired_runs(const SavedResult& a, const SavedResult& b);

// What a result ran on, for one table cell: "/dev/loop3" or "folder /home/ann/bench".
using client::result_target_text;

// The progress line of a running job: "seek  42 %  ·  about 3 s left  ·
// 1.2 ms" (the app's progress text, then the last value measured, with its
// unit). `now_us`: the wall clock, as the daemon's StartedAt.
std::string progress_line(const client::JobEntry& job, std::int64_t now_us);

// The change from `a` to `b` in percent, "+12.5 %", "-3.0 %"; "" when a is 0.
std::string change_text(double a, double b);

} // namespace diskbench::cli
