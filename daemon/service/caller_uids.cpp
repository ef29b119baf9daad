// SPDX-License-Identifier: GPL-3.0-or-later
#include "caller_uids.hpp"

namespace diskbench::service {

uid_t CallerUids::uid_of(const sdbus::Message& message)
{
    const std::string sender = message.getSender();
    // Only unique names (":1.42"): a message always comes from one, but
    // nothing is kept for anything else.
    if (!sender.starts_with(':'))
        return message.getCredsUid();
    if (const auto found = uids_.find(sender); found != uids_.end())
        return found->second;
    const uid_t uid = message.getCredsUid(); // throws when the bus cannot say: nothing kept
    if (uids_.size() >= capacity_)
        uids_.clear();
    uids_.emplace(sender, uid);
    return uid;
}

} // namespace diskbench::service
