// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "daemon_session.hpp"

#include "contract/error_names.hpp"
#include "results/folder.hpp"

#include <optional>
#include <string>
#include <variant>

namespace diskbench::cli {

// Where a run goes: a Device object, or a folder we opened ourselves.
struct Target {
    std::string device_path;
    client::DirectoryFd folder;
};

// The answer to one StartBenchmark / StartFilesystemBenchmark: the Job's
// path or the error; or nothing when Ctrl-C / SIGTERM came first.
struct StartWait {
    DaemonSession* session = nullptr;
    std::optional<std::variant<std::string, client::CallError>> reply;
    bool interrupted = false;
};

// Starts KIND on TARGET and runs the session's loop until the daemon
// answers. Ctrl-C or SIGTERM while it waits (for polkit, say) gives up: the
// caller exits, its connection closes, and the daemon cancels a job it
// still starts for a closed connection (we never set "detach").
void start_job(StartWait& wait, const std::string& kind, const Target& target, const client::SavedValueMap& options);

// Starts KIND as `run` does: first without a password prompt; if polkit
// would ask and we can (a terminal, not --no-ask-password), again with our
// own text agent, which goes once the job has started (one password per
// run, like the app's). The job's path; or nothing, after printing why
// (TARGET_ARGUMENT names the target), with CODE the exit status.
std::optional<std::string> start_job_asking(DaemonSession& session, const std::string& kind, const Target& target,
                                            const client::SavedValueMap& options, bool no_ask_password,
                                            const std::string& target_argument, ExitCode& code);

// Whether the daemon refused with CODE.
inline bool is_error(const client::CallError& error, contract::ErrorCode code)
{
    return error.name == contract::error_name(code);
}

} // namespace diskbench::cli
