// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Logging to stderr, which systemd sends to the journal.
//  info:    what an administrator wants in the journal: start, stop, jobs started and ended.
//  debug:   with --verbose only: each request and authorization answer, device changes.
//  warning: something failed that the daemon survives (udisks gone, polkit unreachable).

#include <fmt/format.h>

#include <cstdio>

namespace diskbench::service {

void set_verbose(bool verbose) noexcept;
bool verbose() noexcept;

template <typename... Args>
void log_info(fmt::format_string<Args...> format, Args&&... args)
{
    fmt::print(stderr, "diskbenchd: {}\n", fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void log_warning(fmt::format_string<Args...> format, Args&&... args)
{
    fmt::print(stderr, "diskbenchd: warning: {}\n", fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void log_debug(fmt::format_string<Args...> format, Args&&... args)
{
    if (verbose())
        fmt::print(stderr, "diskbenchd: debug: {}\n", fmt::format(format, std::forward<Args>(args)...));
}

} // namespace diskbench::service
