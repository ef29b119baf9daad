// SPDX-License-Identifier: GPL-3.0-or-later
#include "errors.hpp"

namespace diskbench::service {

std::string_view error_name(ErrorCode code) noexcept
{
    switch (code) {
    case ErrorCode::NotAuthorized:
        return "org.diskbench.DiskBench1.Error.NotAuthorized";
    case ErrorCode::NotAuthorizedCanObtain:
        return "org.diskbench.DiskBench1.Error.NotAuthorizedCanObtain";
    case ErrorCode::NotAuthorizedDismissed:
        return "org.diskbench.DiskBench1.Error.NotAuthorizedDismissed";
    case ErrorCode::InvalidArgument:
        return "org.diskbench.DiskBench1.Error.InvalidArgument";
    case ErrorCode::NotFound:
        return "org.diskbench.DiskBench1.Error.NotFound";
    case ErrorCode::DeviceBusy:
        return "org.diskbench.DiskBench1.Error.DeviceBusy";
    case ErrorCode::Cancelled:
        return "org.diskbench.DiskBench1.Error.Cancelled";
    case ErrorCode::Failed:
        return "org.diskbench.DiskBench1.Error.Failed";
    }
    return "org.diskbench.DiskBench1.Error.Failed";
}

sdbus::Error make_error(ErrorCode code, const std::string& message)
{
    return sdbus::Error(std::string(error_name(code)), message);
}

} // namespace diskbench::service
