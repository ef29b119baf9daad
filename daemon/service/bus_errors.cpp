// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus_errors.hpp"

#include "../engine/errors.hpp"

#include <cerrno>

namespace diskbench::service {

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
        if (bus_error->getName().starts_with(contract::error_prefix))
            return *bus_error;
        return make_error(ErrorCode::Failed, bus_error->getName() + ": " + bus_error->getMessage());
    }
    return make_error(error_code_of(error), error.what());
}

} // namespace diskbench::service
