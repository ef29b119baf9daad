// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <string>

namespace diskbench::service {

// The uid of a caller's connection, asked of the bus once per connection.
// On dbus-daemon a message carries no credentials: sd-bus asks the bus
// driver (GetConnectionCredentials), a round trip that blocks the bus
// thread, and under a flood of calls the driver is slow to answer, so each
// refusal took about a millisecond of everyone's time. A unique name is
// never given to another connection and a connection's uid never changes,
// so the answer holds until the name leaves the bus (forget()). At most
// `capacity` names are kept; past that the cache starts again (a name
// whose leaving was missed is only memory, never a wrong answer).
class CallerUids {
public:
    explicit CallerUids(std::size_t capacity = 4096) : capacity_(capacity) {}

    uid_t uid_of(const sdbus::Message& message);
    void forget(const std::string& unique_name) { uids_.erase(unique_name); }

private:
    std::size_t capacity_;
    std::map<std::string, uid_t, std::less<>> uids_;
};

} // namespace diskbench::service
