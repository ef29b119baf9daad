// SPDX-License-Identifier: GPL-3.0-or-later
#include "daemon_session.hpp"

#include "contract/bus_names.hpp"

#include <glib-unix.h>
#include <glib/gi18n-lib.h>

#include <csignal>

#include <algorithm>

namespace diskbench::cli {

namespace {

// The first call may have to start diskbenchd by bus activation.
constexpr guint load_timeout_s = 60;
// "/org/diskbench/DiskBench1/jobs/"
std::string jobs_path_prefix()
{
    return std::string(contract::bus::root_path) + std::string(contract::bus::jobs_element);
}

} // namespace

DaemonSession::DaemonSession()
    : loop_(g_main_loop_new(nullptr, FALSE), &g_main_loop_unref)
    , client_(std::make_unique<DaemonClient>())
{
    client_->add_observer(this);
}

DaemonSession::~DaemonSession()
{
    client_->remove_observer(this);
}

bool DaemonSession::load(std::string& error)
{
    if (!(devices_in_ && kinds_in_)) {
        loading_ = true;
        const guint timeout = g_timeout_add_seconds(load_timeout_s, [](gpointer self) -> gboolean {
            static_cast<DaemonSession*>(self)->unreachable_ = true;
            static_cast<DaemonSession*>(self)->quit();
            return G_SOURCE_REMOVE;
        }, this);
        run();
        loading_ = false;
        if (!unreachable_)
            g_source_remove(timeout);
    }
    if (unreachable_ || !(devices_in_ && kinds_in_)) {
        error = _("The benchmark service (diskbenchd) cannot be reached on the system bus.");
        return false;
    }
    return true;
}

void DaemonSession::check_loaded()
{
    if (loading_ && devices_in_ && kinds_in_)
        quit();
}

void DaemonSession::devices_changed()
{
    devices_in_ = true;
    check_loaded();
}

void DaemonSession::benchmarks_changed()
{
    kinds_in_ = true;
    check_loaded();
}

void DaemonSession::job_changed(const JobEntry& job)
{
    if (job_changed_hook)
        job_changed_hook(job);
}

void DaemonSession::job_points_added(const JobEntry& job)
{
    if (points_added_hook)
        points_added_hook(job);
}

void DaemonSession::job_removed(const JobEntry& job)
{
    if (job_removed_hook)
        job_removed_hook(job);
}

void DaemonSession::daemon_availability_changed(bool running)
{
    if (!running && loading_) {
        unreachable_ = true;
        quit();
    }
    if (availability_hook)
        availability_hook(running);
}

bool DaemonSession::run_until(const std::function<bool()>& done)
{
    struct Wait {
        DaemonSession* session;
        bool interrupted = false;
    } wait { this };
    auto on_signal = [](gpointer data) -> gboolean {
        auto* w = static_cast<Wait*>(data);
        w->interrupted = true;
        w->session->quit();
        return G_SOURCE_CONTINUE;
    };
    const guint sigint = g_unix_signal_add(SIGINT, on_signal, &wait);
    const guint sigterm = g_unix_signal_add(SIGTERM, on_signal, &wait);
    while (!done() && !wait.interrupted)
        run();
    // A Ctrl-C in the terminal reaches every process of its group at once:
    // the polkit agent's helper dies of it too, and the daemon's answer to
    // that ("not authorized") can end the wait above before the loop has
    // dispatched our own SIGINT, which the kernel delivered first. Look
    // once more, without blocking, so the Ctrl-C is what the user sees.
    for (int i = 0; i < 8 && !wait.interrupted && g_main_context_iteration(nullptr, FALSE); ++i) {
    }
    g_source_remove(sigint);
    g_source_remove(sigterm);
    return !wait.interrupted;
}

bool DaemonSession::pause(unsigned seconds)
{
    struct Wait {
        DaemonSession* session;
        bool over = false;
    } wait { this };
    const guint timer = g_timeout_add(seconds * 1000, [](gpointer data) -> gboolean {
        auto* w = static_cast<Wait*>(data);
        w->over = true;
        w->session->quit();
        return G_SOURCE_REMOVE;
    }, &wait);
    const bool waited = run_until([&wait] { return wait.over; });
    if (!wait.over)
        g_source_remove(timer);
    return waited;
}

std::string job_path_from_argument(const std::string& argument)
{
    if (argument.starts_with(jobs_path_prefix()))
        return argument;
    if (!argument.empty() && std::all_of(argument.begin(), argument.end(), [](char c) { return g_ascii_isdigit(c); }))
        return jobs_path_prefix() + argument;
    return {};
}

} // namespace diskbench::cli
