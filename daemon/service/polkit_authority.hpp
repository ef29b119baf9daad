// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace diskbench::service {

enum class Authorization {
    Authorized,
    NotAuthorized,
    Challenge, // would be granted after authentication, but interaction was not allowed
    Dismissed, // the user closed the authentication dialog
    Unavailable, // polkitd did not answer; treated as "no"
};

// Asks polkitd, asynchronously, whether a caller may perform an action. The
// subject is the caller's unique bus name ("system-bus-name"), which polkit
// resolves to the process and its session itself; the racy unix-process
// subject (CVE-2013-4288) is never used. Callbacks run on the bus thread.
class PolkitAuthority {
public:
    using Callback = std::function<void(Authorization answer, const std::string& detail)>;

    explicit PolkitAuthority(sdbus::IConnection& connection);

    void check(const std::string& bus_name, const std::string& action_id,
               const std::map<std::string, std::string>& details, bool allow_user_interaction, Callback callback);

private:
    std::unique_ptr<sdbus::IProxy> authority_;
};

} // namespace diskbench::service
