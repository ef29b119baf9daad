// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/sandbox/fs_credentials.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <sys/types.h>

#include <string>
#include <vector>

namespace diskbench::service {

// What the bus daemon says about a caller (GetConnectionCredentials: what
// the kernel said about its socket when it connected, SO_PEERCRED and
// SO_PEERGROUPS), never the caller's own word and never /proc, whose pid
// may be reused.
struct BusCredentials {
    uid_t uid = 0;
    std::vector<gid_t> groups; // the process's groups (getgroups)
};

// The bus's word on the caller of a method call, by its unique bus name.
// `uid` is the uid sd-bus already reported for the message; a mismatch
// means the name changed hands, and is refused. A quick call to the bus
// daemon: fine on the bus thread. Throws sdbus::Error (Failed) when the bus
// has no answer.
BusCredentials bus_credentials(sdbus::IProxy& bus_driver, const std::string& unique_name, uid_t uid);

// The credentials a filesystem benchmark acts with. The bus does not carry
// the caller's gid, so the fsgid is the user's primary group from the user
// database (new files get the group they get when the user makes them in a
// shell; setgid folders aside, which the kernel handles), but only when the
// caller's process still has that group: one that dropped it must not get
// it back through us. Then the fsgid is the overflow group, which grants
// nothing. Asks NSS, which may wait on the network (LDAP, SSSD): never call
// it on the bus thread. Throws sdbus::Error (Failed) when the user database
// does not know the uid.
engine::Credentials with_primary_group(const BusCredentials& caller);

// The kernel's "nobody" group (/proc/sys/kernel/overflowgid's default).
inline constexpr gid_t overflow_gid = 65534;

} // namespace diskbench::service
