// SPDX-License-Identifier: GPL-3.0-or-later
#include "user_limits.hpp"

#include "bus_errors.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace diskbench::service {

namespace {

// ", of them cancelled but still waiting for their I/O: /…/jobs/3, /…/jobs/5"
std::string stuck_clause(const std::vector<std::string>& stuck)
{
    if (stuck.empty())
        return {};
    return fmt::format(" ({} of them cancelled, but still waiting for I/O that a device or filesystem has not "
                       "answered: {})",
                       stuck.size(), fmt::join(stuck, ", "));
}

} // namespace

void UserLimits::check_start(uid_t uid, const UserLoad& load) const
{
    if (load.stuck.size() >= caps_.stuck_runs)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("uid {} has {} cancelled benchmarks whose threads still wait for I/O that a "
                                     "device or filesystem has not answered ({}), the most one user may have; they "
                                     "end when it answers again",
                                     uid, load.stuck.size(), fmt::join(load.stuck, ", ")));
    if (load.stuck_total >= caps_.stuck_runs_total)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("diskbenchd already has {} cancelled benchmarks whose threads wait for I/O "
                                     "that a device or filesystem has not answered{}; no new benchmark starts until "
                                     "some of it comes back",
                                     load.stuck_total,
                                     load.stuck.empty() ? std::string()
                                                        : fmt::format(" (yours: {})", fmt::join(load.stuck, ", "))));
    if (load.disposing >= caps_.disposals)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("uid {} has {} scratch folders whose removal has not finished (a filesystem "
                                     "that does not answer); wait for them",
                                     uid, load.disposing));
    if (load.disposing_total >= caps_.disposals_total)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("diskbenchd is still removing {} scratch folders on filesystems that do not "
                                     "answer; no new benchmark starts until some are gone",
                                     load.disposing_total));
    const std::size_t held = load.running + load.stuck.size();
    if (held + load.preparing >= caps_.running_jobs)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("uid {} already runs {} benchmarks{}{}, the most one user may run at once; "
                                     "wait for one to end or cancel it",
                                     uid, held, stuck_clause(load.stuck),
                                     load.preparing == 0
                                         ? std::string()
                                         : fmt::format(" and has {} more being started (their folders being "
                                                       "prepared)",
                                                       load.preparing)));
    if (load.preparing >= caps_.preparations)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("uid {} already has {} folders being prepared for a benchmark; wait for them",
                                     uid, load.preparing));
}

std::shared_ptr<engine::ResourceBudget> UserLimits::budget(uid_t uid)
{
    std::erase_if(budgets_, [](const auto& entry) { return entry.second.expired(); });
    if (auto existing = budgets_[uid].lock())
        return existing;
    auto budget = std::make_shared<engine::ResourceBudget>(caps_.io_threads, caps_.buffer_bytes);
    budgets_[uid] = budget;
    return budget;
}

} // namespace diskbench::service
