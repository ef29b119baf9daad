// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "exit_codes.hpp"

#include "bus/daemon_client.hpp"

#include <glib.h>

#include <functional>
#include <memory>
#include <string>

namespace diskbench::cli {

using client::DaemonClient;
using client::JobEntry;

// The clients' D-Bus layer (libdiskbench-client/bus: DaemonClient, sdbus-c++
// on a GLib main loop) driven by a command: the same proxies, the same catch-up of
// samples and the same device table the app has, so the CLI and the app
// cannot read the daemon differently. GLib's loop also serves the polkit
// text agent and Ctrl-C (g_unix_signal_add).
class DaemonSession final : public DaemonClient::Observer {
public:
    // Connects to the system bus; throws sdbus::Error when there is none.
    DaemonSession();
    ~DaemonSession() override;
    DaemonSession(const DaemonSession&) = delete;
    DaemonSession& operator=(const DaemonSession&) = delete;

    // Runs the loop until the daemon's devices, jobs and benchmark kinds are
    // in (starting the daemon when it is not running). False, with a message,
    // when the daemon cannot be reached.
    bool load(std::string& error);

    DaemonClient& client() noexcept { return *client_; }
    void run() { g_main_loop_run(loop_.get()); }
    void quit() { g_main_loop_quit(loop_.get()); }
    // Runs the loop until DONE() holds (checked after each quit()), or
    // until SIGINT or SIGTERM arrives: false then. What a command waits on
    // calls quit() when it comes.
    bool run_until(const std::function<bool()>& done);
    // Waits SECONDS on the loop, so that SIGINT or SIGTERM in a pause ends
    // a command its own way (as a cancel does), not by the signal's
    // default action. False when one came first.
    bool pause(unsigned seconds);

    // For commands that follow a job.
    std::function<void(const JobEntry&)> job_changed_hook, points_added_hook, job_removed_hook;
    std::function<void(bool)> availability_hook;

private:
    void devices_changed() override;
    void benchmarks_changed() override;
    void job_changed(const JobEntry& job) override;
    void job_points_added(const JobEntry& job) override;
    void job_removed(const JobEntry& job) override;
    void daemon_availability_changed(bool running) override;
    void check_loaded();

    std::unique_ptr<GMainLoop, decltype(&g_main_loop_unref)> loop_;
    std::unique_ptr<DaemonClient> client_;
    bool loading_ = false, devices_in_ = false, kinds_in_ = false, unreachable_ = false;
};

// A job given on the command line: its object path, or its number
// ("3" for /org/diskbench/DiskBench1/jobs/3). Empty when it is neither.
std::string job_path_from_argument(const std::string& argument);

} // namespace diskbench::cli
