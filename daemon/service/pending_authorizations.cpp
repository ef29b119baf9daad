// SPDX-License-Identifier: GPL-3.0-or-later
#include "pending_authorizations.hpp"

#include "bus_errors.hpp"

namespace diskbench::service {

void PendingAuthorizations::begin(uid_t uid)
{
    std::size_t& count = by_user_[uid];
    if (count >= per_user_)
        throw make_error(ErrorCode::LimitsExceeded,
                         { "error-limit-pending-authorizations", { { "uid", uid }, { "count", count } } });
    ++count;
}

void PendingAuthorizations::end(uid_t uid) noexcept
{
    auto found = by_user_.find(uid);
    if (found == by_user_.end())
        return;
    if (--found->second == 0)
        by_user_.erase(found);
}

} // namespace diskbench::service
