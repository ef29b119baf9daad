// SPDX-License-Identifier: GPL-3.0-or-later
#include "refused_starts.hpp"

#include "bus_errors.hpp"

namespace diskbench::service {

void RefusedStarts::forget_before(std::deque<Clock::time_point>& times, Clock::time_point now) const
{
    while (!times.empty() && now - times.front() >= window_)
        times.pop_front();
}

void RefusedStarts::check(uid_t uid, Clock::time_point now)
{
    const auto found = by_user_.find(uid);
    if (found == by_user_.end())
        return;
    forget_before(found->second, now);
    if (found->second.empty()) {
        by_user_.erase(found);
        return;
    }
    if (found->second.size() >= per_user_) {
        const auto wait = std::chrono::ceil<std::chrono::seconds>(window_ - (now - found->second.front()));
        throw make_error(ErrorCode::LimitsExceeded,
                         { "error-limit-refused-starts",
                           { { "uid", uid },
                             { "count", found->second.size() },
                             { "seconds", static_cast<std::uint64_t>(std::max<std::int64_t>(1, wait.count())) } } });
    }
}

void RefusedStarts::count(uid_t uid, Clock::time_point now)
{
    std::deque<Clock::time_point>& times = by_user_[uid];
    forget_before(times, now);
    // Never more than per_user_ kept: check() refuses from there on, so
    // one user's memory here is bounded.
    if (times.size() >= per_user_)
        times.pop_front();
    times.push_back(now);
}

} // namespace diskbench::service
