// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_set_runner.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/job_states.hpp"
#include "results/job_result.hpp"
#include "text/kind_titles.hpp"
#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

RunSetRunner::RunSetRunner(RecentResults& recent, Host& host) : recent_(recent), host_(host) {}

RunSetRunner::~RunSetRunner()
{
    if (rest_timer_)
        g_source_remove(rest_timer_);
}

bool RunSetRunner::start(RunSetPlan plan, unsigned pause_s, const std::string& device_path)
{
    if (running_ || plan.kinds.empty())
        return false;
    plan_ = std::move(plan);
    pause_s_ = pause_s;
    device_path_ = device_path;
    next_ = 0;
    job_path_.clear();
    awaiting_kind_.clear();
    runs_.clear();
    path_.clear();
    running_ = true;
    stopping_ = false;
    start_next();
    return true;
}

void RunSetRunner::stop()
{
    // Once: the cancelled run ends the set with what it measured (a device
    // that stops answering is ended by the daemon in under a second, a
    // daemon that goes away by job_removed()).
    if (!running_ || stopping_)
        return;
    stopping_ = true;
    if (rest_timer_) {
        g_source_remove(rest_timer_);
        rest_timer_ = 0;
        end(_("The set was stopped."));
        return;
    }
    // The run's end (cancelled, with what it measured) ends the set; a
    // start still waiting for its reply is cancelled when it comes.
    if (!job_path_.empty())
        host_.cancel_set_run(job_path_);
    host_.set_changed();
}

void RunSetRunner::start_next()
{
    if (next_ >= plan_.kinds.size()) {
        end({});
        return;
    }
    const std::string kind = plan_.kinds[next_++];
    awaiting_kind_ = kind;
    job_path_.clear();
    host_.set_changed();
    // A set only reads: a read kind's opt-in writes (the overview's write
    // rate, the QD sweep's writes) stay off, whatever its page says
    // (contract::kinds::writes_when).
    SavedValueMap forced;
    if (const std::string_view write = contract::kinds::writes_when(kind); !write.empty())
        forced[std::string(write)] = false;
    if (!host_.start_set_run(device_path_, kind, forced)) {
        awaiting_kind_.clear();
        end(printf_text(_("The set stopped: %s could not start."), kind_title_text(kind).c_str()));
    }
}

void RunSetRunner::run_started(const std::string& kind, const std::string& job_path)
{
    if (!running_ || awaiting_kind_.empty() || kind != awaiting_kind_)
        return;
    awaiting_kind_.clear();
    if (job_path.empty()) {
        // The page said why (a toast); the set goes no further.
        end(printf_text(_("The set stopped: %s did not start."), kind_title_text(kind).c_str()));
        return;
    }
    job_path_ = job_path;
    owned_.push_back(job_path);
    if (stopping_)
        host_.cancel_set_run(job_path_);
    host_.set_changed();
    // A short run may have ended (its last signals in) before the start's
    // reply came: no further change would tell us. Gone already, it never
    // will.
    if (const JobEntry* job = host_.set_run_job(job_path))
        job_updated(*job);
    else
        job_removed(job_path);
}

void RunSetRunner::job_updated(const JobEntry& job)
{
    if (!running_ || job.path != job_path_ || !job.ended())
        return;
    const bool failed = job.state == contract::job_states::failed;
    const std::uint64_t points = job.point_count();
    // The last points (all of them, for a short run) may come after the
    // end: wait for them, as the window's keep_if_ours() does.
    if (!failed && !job.all_samples_here())
        return;
    job_path_.clear();
    if (!failed && points > 0) {
        runs_.push_back(saved_result_from_job(job));
        keep();
    }
    if (failed) {
        end(printf_text(_("The set stopped: %s failed."), kind_title_text(job.kind).c_str()));
        return;
    }
    if (job.state == contract::job_states::cancelled || stopping_) {
        end(_("The set was stopped."));
        return;
    }
    rest_then_next();
}

void RunSetRunner::rest_then_next()
{
    if (next_ >= plan_.kinds.size() || pause_s_ == 0) {
        start_next();
        return;
    }
    // Milliseconds: g_timeout_add_seconds() may fire up to a second early.
    rest_timer_ = g_timeout_add(pause_s_ * 1000, &RunSetRunner::on_rest_over, this);
    host_.set_changed();
}

gboolean RunSetRunner::on_rest_over(gpointer self)
{
    auto* runner = static_cast<RunSetRunner*>(self);
    runner->rest_timer_ = 0;
    runner->start_next();
    return G_SOURCE_REMOVE;
}

void RunSetRunner::keep()
{
    const SavedResult set = run_set_result(plan_, pause_s_, runs_);
    std::string error;
    if (path_.empty())
        path_ = recent_.add(set, error);
    else
        error = recent_.update(path_, set);
    if (!error.empty())
        host_.set_ended(std::string(_("Could not keep the result:")) + " " + error);
    else
        host_.set_kept();
}

void RunSetRunner::end(const std::string& message)
{
    running_ = false;
    stopping_ = false;
    const SavedResult set = runs_.empty() ? SavedResult {} : run_set_result(plan_, pause_s_, runs_);
    last_state_ = runs_.empty() ? std::string("ended:none:0:")
                                : "ended:" + set.state + ":" + std::to_string(runs_.size()) + ":" + path_;
    host_.set_changed();
    if (!message.empty())
        host_.set_ended(message);
    else if (runs_.empty())
        host_.set_ended(_("The set ended without a result."));
    else
        host_.set_ended(printf_text(g_dngettext(GETTEXT_PACKAGE, "%s: %zu benchmark run, kept as one result",
                                                "%s: %zu benchmarks run, kept as one result", runs_.size()),
                                    run_set_title(set).c_str(), runs_.size()));
}

bool RunSetRunner::owns(const std::string& job_path) const
{
    return std::find(owned_.begin(), owned_.end(), job_path) != owned_.end();
}

bool RunSetRunner::may_own(const JobEntry& job) const
{
    return owns(job.path)
        || (running_ && !awaiting_kind_.empty() && job.kind == awaiting_kind_ && job.device == device_path_);
}

void RunSetRunner::job_removed(const std::string& job_path)
{
    if (running_ && !job_path.empty() && job_path == job_path_) {
        job_path_.clear();
        end(_("The set stopped: its benchmark is gone (the benchmark service stopped?)."));
    }
}

std::string RunSetRunner::status() const
{
    if (!running_)
        return last_state_;
    const std::size_t index = rest_timer_ ? next_ + 1 : next_;
    const std::string& kind = plan_.kinds[std::min(index, plan_.kinds.size()) - 1];
    return std::string(rest_timer_ ? "resting:" : "running:") + std::to_string(index) + "/"
        + std::to_string(plan_.kinds.size()) + ":" + kind;
}

std::string RunSetRunner::progress_text() const
{
    if (!running_)
        return {};
    const std::size_t index = rest_timer_ ? next_ + 1 : next_;
    const std::string kind = kind_title_text(plan_.kinds[std::min(index, plan_.kinds.size()) - 1]);
    if (rest_timer_)
        /* TRANSLATORS: a set rests between two benchmarks: "Resting before Random (2 of 6)" */
        return printf_text(_("Resting before %s (%zu of %zu)"), kind.c_str(), index, plan_.kinds.size());
    if (stopping_)
        return _("Stopping the set…");
    /* TRANSLATORS: the benchmark a set runs now: "Random, 2 of 6" */
    return printf_text(_("%s, %zu of %zu"), kind.c_str(), index, plan_.kinds.size());
}

} // namespace diskbench::client
