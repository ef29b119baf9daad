// SPDX-License-Identifier: GPL-3.0-or-later
#include "job_follower.hpp"

#include "result_text.hpp"

#include "results/job_result.hpp"
#include "text/printf_text.hpp"
#include "results/recent_results.hpp"
#include "contract/job_states.hpp"
#include "error_output.hpp"
#include "results/openmetrics.hpp"
#include "kinds/burn_in_verdict.hpp"
#include "kinds/capacity_check.hpp"
#include "kinds/surface_faults.hpp"
#include "text/terminal_text.hpp"

#include <glib-unix.h>
#include <glib/gi18n-lib.h>

#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace diskbench::cli {

namespace {

using client::printf_text;

// After the job ended, how long to wait for the last samples (the catch-up
// runs on; a daemon that forgot the job gives none).
constexpr guint catch_up_wait_ms = 5000;
// Redraw the progress line at most this often (a fast job sends samples
// every few milliseconds).
constexpr std::int64_t redraw_interval_us = 200000;

class Follower {
public:
    Follower(DaemonSession& session, std::string path, const ResultOutput& output)
        : session_(session)
        , path_(std::move(path))
        , output_(output)
        , progress_(isatty(STDERR_FILENO) == 1)
    {
    }

    ExitCode run()
    {
        session_.job_changed_hook = [this](const JobEntry& job) { on_update(job); };
        session_.points_added_hook = [this](const JobEntry& job) { on_update(job); };
        session_.job_removed_hook = [this](const JobEntry& job) {
            if (job.path == path_) {
                last_ = job;
                gone_ = true;
                finish();
            }
        };
        session_.availability_hook = [this](bool running) {
            if (!running && !done_) {
                lost_daemon_ = true;
                session_.quit();
            }
        };
        const guint sigint = g_unix_signal_add(SIGINT, &Follower::on_signal, this);
        const guint sigterm = g_unix_signal_add(SIGTERM, &Follower::on_signal, this);
        const guint ticker = progress_ ? g_timeout_add_seconds(1, &Follower::on_tick, this) : 0;
        if (const JobEntry* job = session_.client().job(path_))
            on_update(*job);
        if (!done_)
            session_.run();
        g_source_remove(sigint);
        g_source_remove(sigterm);
        if (ticker)
            g_source_remove(ticker);
        if (wait_timer_)
            g_source_remove(wait_timer_);
        session_.job_changed_hook = session_.points_added_hook = session_.job_removed_hook = nullptr;
        session_.availability_hook = nullptr;
        clear_progress();
        if (lost_daemon_) {
            print_error(_("The benchmark service (diskbenchd) went away."));
            return exit_no_daemon;
        }
        return report();
    }

private:
    static gboolean on_signal(gpointer self)
    {
        static_cast<Follower*>(self)->interrupted();
        return G_SOURCE_CONTINUE;
    }
    static gboolean on_tick(gpointer self)
    {
        auto* follower = static_cast<Follower*>(self);
        if (const JobEntry* job = follower->session_.client().job(follower->path_))
            follower->draw(*job, true);
        return G_SOURCE_CONTINUE;
    }

    void interrupted()
    {
        if (cancel_sent_) {
            // A second Ctrl-C: leave now. Our connection closes, and the
            // daemon cancels the jobs of a closed connection anyway.
            clear_progress();
            std::_Exit(exit_cancelled);
        }
        cancel_sent_ = true;
        clear_progress();
        std::fprintf(stderr, "%s\n", _("Cancelling…"));
        session_.client().cancel_job(path_, [this](std::optional<client::CallError> error) {
            if (error) {
                cancel_error_ = *error;
                session_.quit();
            }
        });
    }

    void on_update(const JobEntry& job)
    {
        if (job.path != path_)
            return;
        last_ = job;
        if (!job.ended()) {
            draw(job, false);
            return;
        }
        // Ended: wait until every announced sample is here (the result the
        // app would keep), or a little while.
        if (job.all_samples_here()) {
            finish();
        } else if (!wait_timer_) {
            wait_timer_ = g_timeout_add(catch_up_wait_ms, [](gpointer self) -> gboolean {
                auto* follower = static_cast<Follower*>(self);
                follower->wait_timer_ = 0;
                follower->finish();
                return G_SOURCE_REMOVE;
            }, this);
        }
    }

    void finish()
    {
        if (done_)
            return;
        done_ = true;
        session_.quit();
    }

    void draw(const JobEntry& job, bool forced)
    {
        if (!progress_ || job.ended())
            return;
        const std::int64_t now = g_get_real_time();
        if (!forced && now - last_draw_us_ < redraw_interval_us)
            return;
        last_draw_us_ = now;
        std::fprintf(stderr, "\r\033[K%s", client::terminal_text(progress_line(job, now)).c_str());
        std::fflush(stderr);
        drawn_ = true;
    }

    void clear_progress()
    {
        if (drawn_) {
            std::fputs("\r\033[K", stderr);
            std::fflush(stderr);
            drawn_ = false;
        }
    }

    ExitCode report()
    {
        if (cancel_error_) {
            print_error(client::error_text(*cancel_error_).message);
            return exit_code_for_error(cancel_error_->name);
        }
        if (!last_ || !last_->ended()) {
            print_error(_("The job is gone before it ended."));
            return exit_failed;
        }
        const JobEntry& job = *last_;
        if (job.state == contract::job_states::failed) {
            const auto text = client::job_error_text(job);
            print_error(text ? text->message : _("The benchmark failed."));
            return job.error_name.empty() ? exit_failed : exit_code_for_error(job.error_name);
        }
        const client::SavedResult result = client::saved_result_from_job(job);
        if (!job.all_samples_here())
            print_error(_("Not every sample could be fetched from the daemon: the result is incomplete and is not kept."));
        else if (output_.save && job.owner == getuid() && job.point_count() > 0)
            keep(result);
        const std::string json = client::result_to_json(result);
        bool file_ok = true;
        if (output_.file) {
            const std::string error = client::write_file_atomically(*output_.file, json);
            if (!error.empty()) {
                print_error(*output_.file + ": " + error);
                file_ok = false;
            }
        }
        // Only a finished run replaces the metrics: after a cancelled one
        // the file keeps the last finished run's (a textfile collector
        // serves those on, instead of nothing).
        if (output_.metrics_file && job.state == contract::job_states::finished) {
            const std::string error
                = client::write_file_atomically(*output_.metrics_file, client::openmetrics_text({ result }));
            if (!error.empty()) {
                print_error(*output_.metrics_file + ": " + error);
                file_ok = false;
            }
        }
        if (output_.finished && job.state == contract::job_states::finished)
            output_.finished->push_back(result);
        if (output_.ended && job.point_count() > 0 && job.all_samples_here())
            output_.ended->push_back(result);
        if (!output_.print)
            ; // the caller prints
        else if (output_.json)
            std::fputs(json.c_str(), stdout);
        else
            std::fputs(result_summary_text(result, output_.keys).c_str(), stdout);
        std::fflush(stdout);
        if (job.state == contract::job_states::cancelled)
            return exit_cancelled;
        if (!file_ok)
            return exit_file;
        // A scan that found bad blocks, or a capacity check that found a
        // fake, finished, but a script must not take it for a healthy drive.
        const client::CapacityVerdict capacity = client::capacity_verdict(result);
        if (capacity.lost())
            return exit_capacity_lost;
        if (client::burn_in_failed(result))
            return exit_burn_in_failed;
        return client::surface_faults(result).has_bad() || capacity.damaged() ? exit_bad_blocks : exit_ok;
    }

    void keep(const client::SavedResult& result)
    {
        client::RecentResults recent;
        std::string error;
        const std::string path = recent.add(result, error);
        if (path.empty())
            print_error(std::string(_("Could not keep the result:")) + " " + error);
        else if (progress_)
            std::fprintf(stderr, "%s\n", printf_text(_("Kept in %s"), client::terminal_text(path).c_str()).c_str());
    }

    DaemonSession& session_;
    std::string path_;
    ResultOutput output_;
    bool progress_;
    bool drawn_ = false, done_ = false, gone_ = false, cancel_sent_ = false, lost_daemon_ = false;
    guint wait_timer_ = 0;
    std::int64_t last_draw_us_ = 0;
    std::optional<JobEntry> last_;
    std::optional<client::CallError> cancel_error_;
};

} // namespace

ExitCode follow_job(DaemonSession& session, const std::string& job_path, const ResultOutput& output)
{
    Follower follower(session, job_path, output);
    return follower.run();
}

} // namespace diskbench::cli
