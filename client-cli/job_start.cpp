// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_start.hpp"

#include "error_output.hpp"
#include "text_agent.hpp"

#include "results/job_result.hpp"
#include "text/printf_text.hpp"
#include "text/terminal_text.hpp"

#include <glib/gi18n-lib.h>

#include <cstdio>
#include <unistd.h>

namespace diskbench::cli {

using client::CallError;
using client::printf_text;
using contract::ErrorCode;

void start_job(StartWait& wait, const std::string& kind, const Target& target, const client::SavedValueMap& options)
{
    auto on_reply = [&wait](std::variant<std::string, client::CallError> answer) {
        wait.reply = std::move(answer);
        wait.session->quit();
    };
    DaemonClient& client = wait.session->client();
    if (target.folder)
        client.start_filesystem_benchmark(target.folder.get(), kind, options, on_reply);
    else
        client.start_benchmark(target.device_path, kind, options, on_reply);
    wait.interrupted = !wait.session->run_until([&wait] { return wait.reply.has_value(); });
}

std::optional<std::string> start_job_asking(DaemonSession& session, const std::string& kind, const Target& target,
                                            const client::SavedValueMap& options, bool no_ask_password,
                                            const std::string& target_argument, ExitCode& code)
{
    // First without a password prompt: if polkit would ask, we decide here
    // whether we can (a terminal, not --no-ask-password) and bring our own
    // agent, instead of the daemon waiting on an agent that is not there.
    const bool can_ask = !no_ask_password && isatty(STDIN_FILENO) == 1;
    client::SavedValueMap first = options;
    first["auth.no_user_interaction"] = true;
    StartWait wait;
    wait.session = &session;
    start_job(wait, kind, target, first);
    std::unique_ptr<TextAgent> agent;
    if (wait.reply && std::holds_alternative<CallError>(*wait.reply)
        && is_error(std::get<CallError>(*wait.reply), ErrorCode::NotAuthorizedCanObtain) && can_ask) {
        std::string error;
        agent = TextAgent::start(error);
        if (!agent) {
            print_error(printf_text(_("cannot ask for a password here: %s"), error.c_str()));
        } else {
            wait.reply.reset();
            start_job(wait, kind, target, options);
        }
    }
    if (wait.interrupted) {
        print_error(_("Interrupted before the benchmark started."));
        code = exit_cancelled;
        return std::nullopt;
    }
    if (const auto* failure = std::get_if<CallError>(&*wait.reply)) {
        std::string text = client::error_text(*failure, target_argument).message;
        if (is_error(*failure, ErrorCode::NotAuthorizedCanObtain))
            text += " " + std::string(no_ask_password ? _("(--no-ask-password was given.)")
                                                      : _("Run diskbenchctl in a terminal to type the password."));
        print_error(text);
        if (!failure->message.empty() && !is_error(*failure, ErrorCode::InvalidArgument))
            std::fprintf(stderr, "  (%s: %s)\n", client::terminal_text(failure->name).c_str(),
                         client::terminal_text(failure->message).c_str());
        code = exit_code_for_error(failure->name);
        return std::nullopt;
    }
    return std::get<std::string>(*wait.reply);
}

} // namespace diskbench::cli
