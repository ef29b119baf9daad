// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>

namespace diskbench::service {

// Counts, per user, the start requests refused in the last `window`, and
// refuses a user past `per_user` of them before anything of its next
// request is read. A refusal is cheap, but not free: the caller's
// credentials, the parameters parsed, polkit asked. A user allowed
// nothing could otherwise keep the bus thread busy with start after start
// from many connections (pending polkit checks are capped per user, but a
// refused one is over at once and frees its place), and everyone else's
// calls would wait behind them. Per uid, as the pending checks are.
class RefusedStarts {
public:
    using Clock = std::chrono::steady_clock;

    RefusedStarts(std::size_t per_user, Clock::duration window) : per_user_(per_user), window_(window) {}

    // Throws sdbus::Error (LimitsExceeded) when `uid` had `per_user`
    // refusals within the window before `now`.
    void check(uid_t uid, Clock::time_point now = Clock::now());
    // A start of `uid` was refused (this class's own refusals are not
    // counted: they cost nothing, and the window ends after the last
    // counted one).
    void count(uid_t uid, Clock::time_point now = Clock::now());

private:
    void forget_before(std::deque<Clock::time_point>& times, Clock::time_point now) const;

    std::size_t per_user_;
    Clock::duration window_;
    std::map<uid_t, std::deque<Clock::time_point>> by_user_;
};

} // namespace diskbench::service
