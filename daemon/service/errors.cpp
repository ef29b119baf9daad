// SPDX-License-Identifier: GPL-3.0-or-later
#include "errors.hpp"

#include "../engine/errors.hpp"

#include <cerrno>

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
    case ErrorCode::PermissionDenied:
        return "org.diskbench.DiskBench1.Error.PermissionDenied";
    case ErrorCode::NoSpace:
        return "org.diskbench.DiskBench1.Error.NoSpace";
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

ErrorCode error_code_of(const std::exception& error) noexcept
{
    if (dynamic_cast<const engine::ParameterError*>(&error))
        return ErrorCode::InvalidArgument;
    if (const auto* io = dynamic_cast<const engine::IoError*>(&error)) {
        switch (io->error_number()) {
        case ENOSPC:
        case EDQUOT:
            return ErrorCode::NoSpace;
        case EACCES:
        case EPERM:
        case EROFS:
            return ErrorCode::PermissionDenied;
        default:
            return ErrorCode::Failed;
        }
    }
    return ErrorCode::Failed;
}

} // namespace diskbench::service
