// SPDX-License-Identifier: GPL-3.0-or-later
// run, watch, cancel: starting and following jobs.
#include "commands.hpp"
#include "daemon_session.hpp"
#include "job_follower.hpp"
#include "job_start.hpp"
#include "parameter_values.hpp"
#include "session_start.hpp"
#include "text_agent.hpp"

#include "contract/error_names.hpp"
#include "results/folder.hpp"
#include "results/job_result.hpp"
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
        if (::stat(argument.c_str(), &facts) == 0 && S_ISDIR(facts.st_mode))
            print_error(printf_text(_("%s runs on a device, not in a folder; folder benchmarks: %s"), info.kind.c_str(),
                                    "file-rw, write-sweep, structure, small-files, mixed-load"));
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

    // First without a password prompt: if polkit would ask, we decide here
    // whether we can (a terminal, not --no-ask-password) and bring our own
    // agent, instead of the daemon waiting on an agent that is not there.
    const bool can_ask = !line.no_ask_password && isatty(STDIN_FILENO) == 1;
    client::SavedValueMap first = *options;
    first["auth.no_user_interaction"] = true;
    StartWait wait;
    wait.session = session.get();
    start_job(wait, kind, *target, first);
    std::unique_ptr<TextAgent> agent;
    if (wait.reply && std::holds_alternative<CallError>(*wait.reply)
        && is_error(std::get<CallError>(*wait.reply), ErrorCode::NotAuthorizedCanObtain) && can_ask) {
        agent = TextAgent::start(error);
        if (!agent) {
            print_error(printf_text(_("cannot ask for a password here: %s"), error.c_str()));
        } else {
            wait.reply.reset();
            start_job(wait, kind, *target, *options);
        }
    }
    if (wait.interrupted) {
        print_error(_("Interrupted before the benchmark started."));
        return exit_cancelled;
    }
    if (const auto* failure = std::get_if<CallError>(&*wait.reply)) {
        std::string text = client::error_text(*failure, line.args[1]).message;
        if (is_error(*failure, ErrorCode::NotAuthorizedCanObtain))
            text += " " + std::string(line.no_ask_password
                                          ? _("(--no-ask-password was given.)")
                                          : _("Run diskbenchctl in a terminal to type the password."));
        print_error(text);
        if (!failure->message.empty() && !is_error(*failure, ErrorCode::InvalidArgument))
            std::fprintf(stderr, "  (%s: %s)\n", client::terminal_text(failure->name).c_str(),
                         client::terminal_text(failure->message).c_str());
        return exit_code_for_error(failure->name);
    }
    agent.reset(); // one password per run, like the app's once-per-job check
    ResultOutput output { line.json, !line.no_save, line.output, line.openmetrics };
    output.keys = line.keys;
    return follow_job(*session, std::get<std::string>(*wait.reply), output);
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
        print_error(printf_text(_("cannot cancel job %s: %s (%s)"), line.args[0].c_str(), (*reply)->message.c_str(),
                                (*reply)->name.c_str()));
        return exit_code_for_error((*reply)->name);
    }
    return exit_ok;
}

} // namespace diskbench::cli
