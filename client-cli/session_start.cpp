// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_start.hpp"

#include <cstdio>

namespace diskbench::cli {

std::unique_ptr<DaemonSession> start_session()
{
    std::unique_ptr<DaemonSession> session;
    try {
        session = std::make_unique<DaemonSession>();
    } catch (const sdbus::Error& error) {
        std::fprintf(stderr, "diskbenchctl: %s\n", error.getMessage().c_str());
        return nullptr;
    }
    std::string error;
    if (!session->load(error)) {
        std::fprintf(stderr, "diskbenchctl: %s\n", error.c_str());
        return nullptr;
    }
    return session;
}

} // namespace diskbench::cli
