// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/recent_results.hpp"
#include "results/run_set.hpp"

#include <glib.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace diskbench::client {

// The app's "Run a Set": the set's benchmarks one after another on one
// device, each started on its page as its Start button does (with the
// page's settings, its password prompt, its live graph), a rest between
// them, and the runs kept as one result file (results/run_set.hpp) that
// grows run by run, so a set stopped half-way keeps what ended.
class RunSetRunner {
public:
    struct Host {
        virtual ~Host() = default;
        // Selects the device (its Device object), shows KIND's page and
        // presses its Start with FORCED over the page's settings. False
        // when the device or the page is gone.
        virtual bool start_set_run(const std::string& device_path, const std::string& kind,
                                   const SavedValueMap& forced) = 0;
        virtual void cancel_set_run(const std::string& job_path) = 0;
        // The job as the client knows it now, or null.
        virtual const JobEntry* set_run_job(const std::string& job_path) = 0;
        virtual void set_changed() = 0;                        // status() changed
        virtual void set_kept() = 0;                           // the set's file was (re)written
        virtual void set_ended(const std::string& message) = 0; // a toast
    };

    RunSetRunner(RecentResults& recent, Host& host);
    ~RunSetRunner();
    RunSetRunner(const RunSetRunner&) = delete;
    RunSetRunner& operator=(const RunSetRunner&) = delete;

    // Starts PLAN on the device (its Device object path); false while a
    // set runs.
    bool start(RunSetPlan plan, unsigned pause_s, const std::string& device_path);
    // Stops the set: the running benchmark is cancelled (what it measured
    // is kept), no further one starts.
    void stop();

    // From the page that was asked to start KIND: its job, or "" when it
    // did not start (refused, password dismissed).
    void run_started(const std::string& kind, const std::string& job_path);
    // Every job change and new points: a run of ours that ended with all
    // its points goes into the set.
    void job_updated(const JobEntry& job);
    // A job gone from the daemon (or the daemon gone): when it is the
    // set's running one, the set ends with what it has.
    void job_removed(const std::string& job_path);

    [[nodiscard]] bool running() const noexcept { return running_; }
    // Whether the job is a run of this set (the window keeps those in the
    // set's file, not as results of their own).
    [[nodiscard]] bool owns(const std::string& job_path) const;
    // owns(), or a job of the kind the set has asked to start and whose
    // start's reply has not come yet (a short run may end before it).
    [[nodiscard]] bool may_own(const JobEntry& job) const;
    // "idle"; "running:K/N:KIND"; "resting:K/N:KIND" (before run K);
    // "ended:STATE:RUNS:PATH" (for the app's set-status action and tests).
    [[nodiscard]] std::string status() const;
    // For the popover: "Random, 2 of 6", "Resting before Random (2 of 6)".
    [[nodiscard]] std::string progress_text() const;

private:
    void start_next();
    void rest_then_next();
    void end(const std::string& message);
    void keep();
    static gboolean on_rest_over(gpointer self);

    RecentResults& recent_;
    Host& host_;
    RunSetPlan plan_;
    unsigned pause_s_ = 0;
    std::string device_path_;
    std::size_t next_ = 0;          // the index of the run to start next
    std::string awaiting_kind_;     // asked to start, no reply yet
    std::string job_path_;          // the run in progress
    std::vector<std::string> owned_; // every job of this set (ended ones too)
    std::vector<SavedResult> runs_;
    std::string path_;              // the set's file, once its first run ended
    guint rest_timer_ = 0;
    bool running_ = false;
    bool stopping_ = false;
    std::string last_state_ = "idle";
};

} // namespace diskbench::client
