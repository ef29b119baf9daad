// SPDX-License-Identifier: GPL-3.0-or-later
#include "exit_codes.hpp"

#include "contract/error_names.hpp"

namespace diskbench::cli {

ExitCode exit_code_for_error(std::string_view error_name) noexcept
{
    using contract::ErrorCode;
    const auto code = contract::error_code_from_name(error_name);
    if (!code)
        return exit_no_daemon;
    switch (*code) {
    case ErrorCode::NotAuthorized: return exit_not_authorized;
    case ErrorCode::NotAuthorizedCanObtain: return exit_can_obtain;
    case ErrorCode::NotAuthorizedDismissed: return exit_dismissed;
    case ErrorCode::InvalidArgument: return exit_invalid_argument;
    case ErrorCode::NotFound: return exit_not_found;
    case ErrorCode::DeviceBusy: return exit_device_busy;
    case ErrorCode::PermissionDenied: return exit_permission_denied;
    case ErrorCode::NoSpace: return exit_no_space;
    case ErrorCode::LimitsExceeded: return exit_limits_exceeded;
    case ErrorCode::Cancelled: return exit_cancelled;
    case ErrorCode::Failed: return exit_failed;
    }
    return exit_failed;
}

} // namespace diskbench::cli
