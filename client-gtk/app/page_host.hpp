// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bus/daemon_client.hpp"
#include "results/recent_results.hpp"

#include <string>

namespace diskbench::client {

// What a page needs from the window around it.
class PageHost {
public:
    virtual ~PageHost() = default;
    virtual DaemonClient* client() = 0;             // null when the bus is unreachable
    virtual const DeviceEntry* selected_device() = 0; // null when none (or a folder is selected)
    virtual std::string selected_folder() = 0;        // the chosen folder's path, or ""
    virtual RecentResults& recent_results() = 0;
    virtual void toast(const std::string& message) = 0;
    // The page's state changed (for the header, the status action, and the
    // reference picker after a run was saved).
    virtual void page_changed() = 0;
    // The page's Start got its answer: the job, or "" when it did not
    // start (a set waits for it, run_set_runner.hpp).
    virtual void run_started(const std::string& /*kind*/, const std::string& /*job_path*/) {}
};

} // namespace diskbench::client
