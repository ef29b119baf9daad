// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <map>

namespace diskbench::service {

// Counts the polkit checks under way, per user, and refuses a user more
// than `per_user` at once. Each check holds a request, its reply and maybe
// a password dialog until polkit answers (up to minutes); without a cap one
// user could open connection after connection and queue thousands of them
// (the bus limits replies per connection, not per user). A check is asked
// for by a user, so the cap is per uid, not per connection.
class PendingAuthorizations {
public:
    explicit PendingAuthorizations(std::size_t per_user) : per_user_(per_user) {}

    // Counts a check for `uid`; throws sdbus::Error (LimitsExceeded) when
    // the user has `per_user` under way already.
    void begin(uid_t uid);
    void end(uid_t uid) noexcept;
    [[nodiscard]] bool empty() const noexcept { return by_user_.empty(); }

private:
    std::size_t per_user_;
    std::map<uid_t, std::size_t> by_user_;
};

} // namespace diskbench::service
