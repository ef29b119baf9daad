// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "daemon_session.hpp"

#include <memory>

namespace diskbench::cli {

// A connected session with the daemon's state loaded, or nothing after
// printing why (the caller exits with exit_no_daemon).
std::unique_ptr<DaemonSession> start_session();

} // namespace diskbench::cli
