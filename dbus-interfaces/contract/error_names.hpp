// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string_view>

namespace diskbench::contract {

// The D-Bus errors diskbenchd replies with, one table for the daemon (which
// raises them) and its clients (which tell the user what happened). The
// split authorization errors exist so a client can tell "ask again
// interactively" and "the user said no" from a plain no.
enum class ErrorCode {
    NotAuthorized,
    NotAuthorizedCanObtain,
    NotAuthorizedDismissed,
    InvalidArgument,
    NotFound,
    DeviceBusy,
    PermissionDenied, // a filesystem benchmark: the caller may not write in its folder
    NoSpace,          // a filesystem benchmark: the filesystem or the caller's quota is full
    LimitsExceeded,   // too many of the caller's requests wait for polkit already
    Cancelled,
    Failed,
};

inline constexpr std::string_view error_prefix = "org.diskbench.DiskBench1.Error.";

// The full D-Bus name, "org.diskbench.DiskBench1.Error.NotFound".
std::string_view error_name(ErrorCode code) noexcept;
// The code of a full D-Bus name; nothing for names outside our table
// (org.freedesktop.DBus.Error.*, or a newer daemon's additions).
std::optional<ErrorCode> error_code_from_name(std::string_view full_name) noexcept;
// What the error means, one English sentence (API docs, the CLI).
std::string_view error_meaning(ErrorCode code) noexcept;

} // namespace diskbench::contract
