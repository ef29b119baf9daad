// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sdbus-c++/Error.h>

#include <string>
#include <string_view>

namespace diskbench::service {

// The one table of D-Bus errors the daemon returns (DESIGN.md, "Names").
// NotAuthorizedCanObtain and NotAuthorizedDismissed exist so a client can
// tell "ask again interactively" and "the user said no" from a plain no.
enum class ErrorCode {
    NotAuthorized,
    NotAuthorizedCanObtain,
    NotAuthorizedDismissed,
    InvalidArgument,
    NotFound,
    DeviceBusy,
    Cancelled,
    Failed,
};

std::string_view error_name(ErrorCode code) noexcept;
sdbus::Error make_error(ErrorCode code, const std::string& message);

} // namespace diskbench::service
