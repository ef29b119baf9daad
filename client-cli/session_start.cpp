// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_start.hpp"
#include "error_output.hpp"

#include <cstdio>

namespace diskbench::cli {

std::unique_ptr<DaemonSession> start_session()
{
    std::unique_ptr<DaemonSession> session;
    try {
        session = std::make_unique<DaemonSession>();
    } catch (const sdbus::Error& error) {
        print_error(error.getMessage());
        return nullptr;
    }
    std::string error;
    if (!session->load(error)) {
        print_error(error);
        return nullptr;
    }
    return session;
}

} // namespace diskbench::cli
