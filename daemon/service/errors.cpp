// SPDX-License-Identifier: GPL-3.0-or-later
#include "errors.hpp"

#include "../engine/errors.hpp"

#include <cerrno>

namespace diskbench::service {

namespace {
constexpr std::string_view error_prefix = "org.diskbench.DiskBench1.Error.";
}

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
    case ErrorCode::LimitsExceeded:
        return "org.diskbench.DiskBench1.Error.LimitsExceeded";
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
    if (dynamic_cast<const engine::DeviceBusyError*>(&error))
        return ErrorCode::DeviceBusy;
    if (dynamic_cast<const engine::LimitsError*>(&error))
        return ErrorCode::LimitsExceeded;
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

sdbus::Error reply_error(const std::exception& error)
{
    if (const auto* bus_error = dynamic_cast<const sdbus::Error*>(&error)) {
        if (bus_error->getName().starts_with(error_prefix))
            return *bus_error;
        return make_error(ErrorCode::Failed, bus_error->getName() + ": " + bus_error->getMessage());
    }
    return make_error(error_code_of(error), error.what());
}

} // namespace diskbench::service
