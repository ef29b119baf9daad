// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/io/resource_budget.hpp"

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace diskbench::service {

// What one user may have of the daemon at once. The device claim
// serialises jobs per disk, but a user can start jobs on many folders
// (tmpfs, network and FUSE filesystems have no Device to claim) and on
// loop devices made through udisks without a password; without these caps
// one user could take every thread and all the memory of a root daemon,
// or get it disconnected from the bus (too many match rules or replies),
// ending everyone's jobs. Root is held to them too: its jobs share the
// daemon with everyone's.
struct LimitCaps {
    // Jobs whose threads have not returned: running ones, cancelled ones
    // still waiting for their I/O, and folders being prepared (each of
    // which becomes one).
    std::size_t running_jobs = 4;
    std::size_t preparations = 4;  // folders being checked and set up
    std::size_t cancel_checks = 8; // polkit questions about cancelling others' jobs
    // Cancelled jobs whose threads still wait at a device or filesystem
    // that stopped answering (a user's own FUSE server can do that at
    // will). Such threads may never come back, and each run holds up to a
    // user's whole thread budget, so these are capped per user and for the
    // daemon, far below the unit's TasksMax=4096.
    std::size_t stuck_runs = 2;
    std::size_t stuck_runs_total = 8;
    // Scratch folders whose removal has not finished (a filesystem that
    // stalls on unlink): each holds two threads (background_disposal.hpp).
    std::size_t disposals = 2;
    std::size_t disposals_total = 16;
    // One run may have 1024 requests and 1 GiB of buffers in flight; a user
    // has that much at once, over all of its runs.
    std::uint64_t io_threads = 1024;
    std::uint64_t buffer_bytes = std::uint64_t { 1 } << 30;
};

// What a user holds of the daemon when it asks to start a job, and what
// everyone holds of what is capped for the daemon as a whole.
struct UserLoad {
    std::size_t running = 0;         // jobs not ended
    std::vector<std::string> stuck;  // its ended jobs whose threads still wait for their I/O
    std::size_t stuck_total = 0;     // everyone's
    std::size_t preparing = 0;       // folders being prepared
    std::size_t disposing = 0;       // scratch folders still being removed
    std::size_t disposing_total = 0; // everyone's
};

class UserLimits {
public:
    explicit UserLimits(LimitCaps caps = {}) : caps_(caps) {}

    [[nodiscard]] const LimitCaps& caps() const noexcept { return caps_; }

    // Throws LimitsExceeded, naming what is held (the stuck jobs' paths),
    // when `uid` may not start another job beside what `load` says it has.
    // Running, stuck and preparing count together against running_jobs:
    // checked apart, starts sent together while folders were being
    // prepared all got through.
    void check_start(uid_t uid, const UserLoad& load) const;

    // The budget the user's runs share: the same one while any of its jobs
    // holds it, a fresh one after.
    std::shared_ptr<engine::ResourceBudget> budget(uid_t uid);

private:
    LimitCaps caps_;
    std::map<uid_t, std::weak_ptr<engine::ResourceBudget>> budgets_;
};

} // namespace diskbench::service
