// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "daemon_session.hpp"
#include "exit_codes.hpp"

#include "types/result_types.hpp"

#include <optional>
#include <string>
#include <vector>

namespace diskbench::cli {

// What to do with a job's result once it has ended.
struct ResultOutput {
    bool json = false;                 // stdout: the result file's JSON, else the result as text
    bool save = true;                  // keep it in $XDG_DATA_HOME/diskbench/results
    std::optional<std::string> file;   // --output
    std::optional<std::string> metrics_file; // --openmetrics
    // Where a finished run's result also goes (the scheduled runs gather
    // theirs for one metrics file); nothing for one run.
    std::vector<client::SavedResult>* finished = nullptr;
    bool keys = false;                 // --keys: the raw summary keys after the text
    bool print = true;                 // false: nothing on stdout (a set prints its own JSON)
    // Where every result with data also goes, finished or cancelled (a
    // set's runs); nothing for one run.
    std::vector<client::SavedResult>* ended = nullptr;
};

// Follows one job (ours from `run`, or any from `watch`) to its end on the
// session's loop: a live progress line on stderr when stderr is a terminal,
// Ctrl-C (SIGINT) or SIGTERM cancels the job, and at the end the result as
// the app keeps it (every sample caught up), printed and saved. Returns the
// exit status: 0 finished, 12 cancelled, the error's status for a failed job.
ExitCode follow_job(DaemonSession& session, const std::string& job_path, const ResultOutput& output);

} // namespace diskbench::cli
