// SPDX-License-Identifier: GPL-3.0-or-later
// run, watch, cancel: starting and following jobs.
#include "commands.hpp"
#include "daemon_session.hpp"
#include "job_follower.hpp"
#include "job_start.hpp"
#include "parameter_values.hpp"
#include "session_start.hpp"
#include "text_agent.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/error_names.hpp"
#include "results/folder.hpp"
#include "results/job_result.hpp"
#include "text/failure_text.hpp"
#include "text/printf_text.hpp"
#include "error_output.hpp"
#include "text/terminal_text.hpp"

#include <glib/gi18n-lib.h>

#include <csignal>
#include <cstdio>
#include <sys/stat.h>
#include <unistd.h>

namespace diskbench::cli {

namespace {

using client::CallError;
using client::printf_text;
using contract::ErrorCode;

std::optional<Target> resolve_target(DaemonSession& session, const client::BenchmarkInfo& info,
                                     const std::string& argument, ExitCode& code)
{
    Target target;
    if (info.target == "directory") {
        std::string error;
        // The folder is opened here, with our own permissions; the daemon
        // gets the descriptor, never the path.
        target.folder = client::open_directory(argument, error);
        if (!target.folder) {
            print_error(argument + ": " + error);
            code = exit_usage;
            return std::nullopt;
        }
        return target;
    }
    const client::DeviceEntry* device = session.client().device_by_node(argument);
    if (!device) {
        struct stat facts {};
        if (::stat(argument.c_str(), &facts) == 0 && S_ISDIR(facts.st_mode)) {
            std::string folder_kinds;
            for (const std::string_view kind : contract::kinds::folder_kinds)
                folder_kinds += (folder_kinds.empty() ? "" : ", ") + std::string(kind);
            print_error(printf_text(_("%s runs on a device, not in a folder; folder benchmarks: %s"), info.kind.c_str(),
                                    folder_kinds.c_str()));
        }
        else
            print_error(printf_text(_("%s is not a device diskbenchd offers (see: diskbenchctl devices)"),
                                    argument.c_str()));
        code = exit_not_found;
        return std::nullopt;
    }
    target.device_path = device->path;
    return target;
}

} // namespace

ExitCode run_command(const CommandLine& line)
{
    auto session = start_session();
    if (!session)
        return exit_no_daemon;
    const std::string& kind = line.args[0];
    const client::BenchmarkInfo* info = session->client().benchmark(kind);
    if (!info) {
        print_error(printf_text(_("no benchmark kind “%s” (see: diskbenchctl benchmarks)"), kind.c_str()));
        return exit_usage;
    }
    std::string error;
    const std::vector<std::string> assignments(line.args.begin() + 2, line.args.end());
    auto options = typed_options(*info, assignments, line.passes, error);
    if (!options) {
        print_error(error);
        return exit_usage;
    }
    ExitCode code = exit_ok;
    const auto target = resolve_target(*session, *info, line.args[1], code);
    if (!target)
        return code;

    const auto job = start_job_asking(*session, kind, *target, *options, line.no_ask_password, line.args[1], code);
    if (!job)
        return code;
    ResultOutput output { line.json, !line.no_save, line.output, line.openmetrics };
    output.keys = line.keys;
    return follow_job(*session, *job, output);
}

namespace {

// The job JOB names (a number from `jobs` or an object path) on a new
// session: exit_ok, or the exit status that says why not.
ExitCode open_job(const std::string& argument, std::unique_ptr<DaemonSession>& session, std::string& path)
{
    path = job_path_from_argument(argument);
    if (path.empty()) {
        print_error(printf_text(_("“%s” is not a job (a number from diskbenchctl jobs, or its object path)"),
                                argument.c_str()));
        return exit_usage;
    }
    session = start_session();
    if (!session)
        return exit_no_daemon;
    if (!session->client().job(path)) {
        print_error(printf_text(_("no job %s"), argument.c_str()));
        return exit_not_found;
    }
    return exit_ok;
}

} // namespace

ExitCode watch_command(const CommandLine& line)
{
    std::unique_ptr<DaemonSession> session;
    std::string path;
    if (const ExitCode refused = open_job(line.args[0], session, path); refused != exit_ok)
        return refused;
    ResultOutput output { line.json, !line.no_save, line.output, line.openmetrics };
    output.keys = line.keys;
    return follow_job(*session, path, output);
}

ExitCode cancel_command(const CommandLine& line)
{
    std::unique_ptr<DaemonSession> session;
    std::string path;
    if (const ExitCode refused = open_job(line.args[0], session, path); refused != exit_ok)
        return refused;
    std::optional<std::optional<CallError>> reply;
    session->client().cancel_job(path, [&](std::optional<CallError> error) {
        reply = std::move(error);
        session->quit();
    });
    while (!reply)
        session->run();
    if (*reply) {
        // The app's texts speak of starting benchmarks; for a refused
        // cancel the daemon's own words say it better.
        print_error(printf_text(_("cannot cancel job %s: %s (%s)"), line.args[0].c_str(),
                                client::localized_failure_text((*reply)->message, (*reply)->failure).c_str(), (*reply)->name.c_str()));
        return exit_code_for_error((*reply)->name);
    }
    return exit_ok;
}

} // namespace diskbench::cli
