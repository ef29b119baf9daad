// SPDX-License-Identifier: GPL-3.0-or-later
#include "user_limits.hpp"

#include "errors.hpp"

#include <fmt/format.h>

namespace diskbench::service {

void UserLimits::check_start(uid_t uid, std::size_t running, std::size_t preparing) const
{
    if (running >= caps_.running_jobs)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("uid {} already runs {} benchmarks, the most one user may run at once; wait for "
                                     "one to end or cancel it",
                                     uid, running));
    if (preparing >= caps_.preparations)
        throw make_error(ErrorCode::LimitsExceeded,
                         fmt::format("uid {} already has {} folders being prepared for a benchmark; wait for them",
                                     uid, preparing));
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
