// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/resource_budget.hpp"

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>

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
    std::size_t running_jobs = 4;
    std::size_t preparations = 4;  // folders being checked and set up
    std::size_t cancel_checks = 8; // polkit questions about cancelling others' jobs
    // One run may have 1024 requests and 1 GiB of buffers in flight; a user
    // has that much at once, over all of its runs.
    std::uint64_t io_threads = 1024;
    std::uint64_t buffer_bytes = std::uint64_t { 1 } << 30;
};

class UserLimits {
public:
    explicit UserLimits(LimitCaps caps = {}) : caps_(caps) {}

    [[nodiscard]] const LimitCaps& caps() const noexcept { return caps_; }

    // Throws LimitsExceeded when `uid` may not start another job beside the
    // `running` jobs and `preparing` folders it has.
    void check_start(uid_t uid, std::size_t running, std::size_t preparing) const;

    // The budget the user's runs share: the same one while any of its jobs
    // holds it, a fresh one after.
    std::shared_ptr<engine::ResourceBudget> budget(uid_t uid);

private:
    LimitCaps caps_;
    std::map<uid_t, std::weak_ptr<engine::ResourceBudget>> budgets_;
};

} // namespace diskbench::service
