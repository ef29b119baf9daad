// SPDX-License-Identifier: GPL-3.0-or-later
// run-set: several read benchmarks one after another on one device, with a
// rest between them, kept as one result file (results/run_set.hpp).
#include "commands.hpp"
#include "contract/kinds/run_set.hpp"
#include "daemon_session.hpp"
#include "error_output.hpp"
#include "job_follower.hpp"
#include "job_start.hpp"
#include "session_start.hpp"

#include "results/recent_results.hpp"
#include "results/run_set.hpp"
#include "text/kind_titles.hpp"
#include "text/printf_text.hpp"
#include "text/terminal_text.hpp"

#include <glib/gi18n-lib.h>

#include <cstdio>
#include <unistd.h>

namespace diskbench::cli {

namespace {

using client::printf_text;

// The session's file in the history, written again after each run, so a
// set stopped (or a machine lost) half-way keeps the runs that ended.
class SessionFile {
public:
    explicit SessionFile(bool keep) : keep_(keep) {}

    void write(const client::SavedResult& set)
    {
        if (!keep_ || failed_)
            return;
        std::string error;
        if (path_.empty())
            path_ = recent_.add(set, error);
        else
            error = recent_.update(path_, set);
        if (!error.empty()) {
            print_error(std::string(_("Could not keep the result:")) + " " + error);
            failed_ = true;
        }
    }

    [[nodiscard]] const std::string& path() const noexcept { return path_; }

private:
    bool keep_;
    bool failed_ = false;
    client::RecentResults recent_;
    std::string path_;
};

} // namespace

ExitCode run_set_command(const CommandLine& line)
{
    auto session = start_session();
    if (!session)
        return exit_no_daemon;
    auto planned = client::plan_run_set(line.args[0], session->client().benchmarks(), client::run_set_custom_kinds());
    if (const auto* error = std::get_if<std::string>(&planned)) {
        print_error(client::terminal_text(*error));
        return exit_usage;
    }
    const client::RunSetPlan& plan = std::get<client::RunSetPlan>(planned);
    const client::DeviceEntry* device = session->client().device_by_node(line.args[1]);
    if (!device) {
        print_error(printf_text(_("%s is not a device diskbenchd offers (see: diskbenchctl devices)"),
                                line.args[1].c_str()));
        return exit_not_found;
    }
    const std::string device_path = device->path; // the entry may go while we run
    const unsigned pause = line.pause.value_or(client::default_run_set_pause_s);
    const bool tell = isatty(STDERR_FILENO) == 1;

    std::vector<client::SavedResult> runs;
    SessionFile file(!line.no_save);
    ExitCode code = exit_ok;
    for (std::size_t i = 0; i < plan.kinds.size(); ++i) {
        const std::string& kind = plan.kinds[i];
        if (i > 0 && pause > 0) {
            if (tell)
                std::fprintf(stderr, "%s\n",
                             printf_text(_("Resting %u s before %s…"), pause, client::kind_title_text(kind).c_str()).c_str());
            if (!session->pause(pause)) {
                code = exit_cancelled;
                break;
            }
        }
        if (!line.json) {
            // "[2/6] Random": the kind's title is translated, the rest is not words.
            std::printf("%s[%zu/%zu] %s\n", i > 0 ? "\n" : "", i + 1, plan.kinds.size(), client::kind_title_text(kind).c_str());
            std::fflush(stdout);
        }
        ExitCode started = exit_ok;
        const auto job = start_job_asking(*session, kind, Target { device_path, {} }, {}, line.no_ask_password,
                                          line.args[1], started);
        if (!job) {
            code = started;
            break;
        }
        ResultOutput output;
        output.save = false; // the runs are kept together, in the set's file
        output.print = !line.json;
        output.ended = &runs;
        const std::size_t before = runs.size();
        const ExitCode ended = follow_job(*session, *job, output);
        if (runs.size() > before)
            file.write(client::run_set_result(plan, pause, runs));
        // A scan's bad blocks are a finding, not a reason to stop; a cancel
        // (Ctrl-C, someone's Cancel) or a failure ends the set.
        if (ended == exit_bad_blocks) {
            code = ended;
            continue;
        }
        if (ended != exit_ok) {
            code = ended;
            break;
        }
    }
    if (runs.empty())
        return code == exit_ok ? exit_failed : code;
    const client::SavedResult set = client::run_set_result(plan, pause, runs);
    const std::string json = client::result_to_json(set);
    if (line.output) {
        if (const std::string error = client::write_file_atomically(*line.output, json); !error.empty()) {
            print_error(*line.output + ": " + error);
            if (code == exit_ok)
                code = exit_file;
        }
    }
    if (line.json) {
        std::fputs(json.c_str(), stdout);
    } else {
        const std::string finished_key(contract::kinds::keys::run_set::finished);
        std::printf("\n%s: %s\n", client::terminal_text(client::run_set_title(set)).c_str(),
                    printf_text(g_dngettext(GETTEXT_PACKAGE, "%zu of %zu benchmark finished",
                                            "%zu of %zu benchmarks finished", plan.kinds.size()),
                                static_cast<std::size_t>(std::get<std::int64_t>(set.summary.at(finished_key))),
                                plan.kinds.size())
                        .c_str());
    }
    std::fflush(stdout);
    if (tell && !file.path().empty())
        std::fprintf(stderr, "%s\n", printf_text(_("Kept in %s"), client::terminal_text(file.path()).c_str()).c_str());
    return code;
}

} // namespace diskbench::cli
