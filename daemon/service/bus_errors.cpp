// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus_errors.hpp"

#include "../engine/errors.hpp"
#include "contract/failure_messages.hpp"

#include <cerrno>

namespace diskbench::service {

namespace {

sdbus::Error named_error(ErrorCode code, const std::string& text)
{
    return sdbus::Error(std::string(error_name(code)), text);
}

} // namespace

sdbus::Error make_error(ErrorCode code, const contract::Message& failure)
{
    return named_error(code, contract::failure_english(failure));
}

sdbus::Error make_error(ErrorCode code, std::string_view key, const contract::Message& failure)
{
    return named_error(code, std::string(key) + ": " + contract::failure_english(failure));
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
        // Another service's words: no catalogue of ours has them.
        return named_error(ErrorCode::Failed, bus_error->getName() + ": " + bus_error->getMessage());
    }
    return named_error(error_code_of(error), error.what());
}

} // namespace diskbench::service
