// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Logging to stderr, which systemd sends to the journal.
//  info:    what an administrator wants in the journal: start, stop, jobs started and ended.
//  debug:   with --verbose only: each request and authorization answer, device changes.
//  warning: something failed that the daemon survives (udisks gone, polkit unreachable).
//
// Every line is one journal entry: control characters in what callers
// chose (a folder named "x\nDec 24 sshd: Accepted ...") are escaped, so
// nobody can forge a line of the journal through us.

#include <fmt/format.h>

#include <cstdio>
#include <string>
#include <string_view>

namespace diskbench::service {

void set_verbose(bool verbose) noexcept;
bool verbose() noexcept;

// `text` with control characters (and backslashes) as C escapes: "\n",
// "\t", "\x1b", "\\".
std::string escaped(std::string_view text);

namespace detail {
void write_line(std::string_view prefix, const std::string& message);
}

template <typename... Args>
void log_info(fmt::format_string<Args...> format, Args&&... args)
{
    detail::write_line("diskbenchd: ", fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void log_warning(fmt::format_string<Args...> format, Args&&... args)
{
    detail::write_line("diskbenchd: warning: ", fmt::format(format, std::forward<Args>(args)...));
}

template <typename... Args>
void log_debug(fmt::format_string<Args...> format, Args&&... args)
{
    if (verbose())
        detail::write_line("diskbenchd: debug: ", fmt::format(format, std::forward<Args>(args)...));
}

} // namespace diskbench::service
