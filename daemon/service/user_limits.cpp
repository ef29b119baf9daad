// SPDX-License-Identifier: GPL-3.0-or-later
#include "user_limits.hpp"

#include "bus_errors.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace diskbench::service {

namespace {

// "/…/jobs/3, /…/jobs/5"
std::string job_list(const std::vector<std::string>& jobs)
{
    return fmt::format("{}", fmt::join(jobs, ", "));
}

// The running-jobs refusal: four failures, as it names cancelled jobs still
// waiting for their I/O and folders being prepared, or not.
contract::Message running_limit(uid_t uid, std::size_t held, const UserLoad& load)
{
    std::vector<contract::MessageArg> args { { "uid", uid }, { "count", held } };
    std::string id = "error-limit-running";
    if (!load.stuck.empty()) {
        id += "-stuck";
        args.emplace_back("stuck", load.stuck.size());
        args.emplace_back("jobs", job_list(load.stuck));
    }
    if (load.preparing != 0) {
        id += "-preparing";
        args.emplace_back("preparing", load.preparing);
    }
    return { std::move(id), std::move(args) };
}

} // namespace

void UserLimits::check_start(uid_t uid, const UserLoad& load) const
{
    if (load.stuck.size() >= caps_.stuck_runs)
        throw make_error(ErrorCode::LimitsExceeded,
                         { "error-limit-stuck-runs",
                           { { "uid", uid }, { "count", load.stuck.size() }, { "jobs", job_list(load.stuck) } } });
    if (load.stuck_total >= caps_.stuck_runs_total)
        throw make_error(ErrorCode::LimitsExceeded,
                         load.stuck.empty()
                             ? contract::Message { "error-limit-stuck-runs-total", { { "count", load.stuck_total } } }
                             : contract::Message { "error-limit-stuck-runs-total-yours",
                                                   { { "count", load.stuck_total },
                                                     { "jobs", job_list(load.stuck) } } });
    if (load.disposing >= caps_.disposals)
        throw make_error(ErrorCode::LimitsExceeded,
                         { "error-limit-disposals", { { "uid", uid }, { "count", load.disposing } } });
    if (load.disposing_total >= caps_.disposals_total)
        throw make_error(ErrorCode::LimitsExceeded,
                         { "error-limit-disposals-total", { { "count", load.disposing_total } } });
    const std::size_t held = load.running + load.stuck.size();
    if (held + load.preparing >= caps_.running_jobs)
        throw make_error(ErrorCode::LimitsExceeded, running_limit(uid, held, load));
    if (load.preparing >= caps_.preparations)
        throw make_error(ErrorCode::LimitsExceeded,
                         { "error-limit-preparations", { { "uid", uid }, { "count", load.preparing } } });
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
