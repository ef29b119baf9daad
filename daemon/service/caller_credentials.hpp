// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/fs_credentials.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <string>

namespace diskbench::service {

// Who a filesystem benchmark acts for: the caller of a method call, by its
// unique bus name. The uid and the supplementary groups come from the bus
// daemon (GetConnectionCredentials: what the kernel said about the caller's
// socket when it connected, SO_PEERCRED/SO_PEERGROUPS), never from the
// caller's own word and never from /proc, whose pid may be reused. The bus
// does not carry the primary gid, so that is the user's primary group from
// the user database: new files get the group they get when the user makes
// them in a shell, setgid directories aside (the kernel handles those).
//
// `uid` is the uid sd-bus already reported for the message; a mismatch
// means the name changed hands, and is refused. Throws sdbus::Error
// (Failed) when the bus or the user database has no answer.
engine::Credentials caller_credentials(sdbus::IProxy& bus_driver, const std::string& unique_name, uid_t uid);

} // namespace diskbench::service
