// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus_errors.hpp"

#include "../engine/base/errors.hpp"
#include "contract/failure_messages.hpp"

#include <cerrno>

namespace diskbench::service {

namespace {

sdbus::Error named_error(ErrorCode code, const std::string& text)
{
    return sdbus::Error(std::string(error_name(code)), text);
}

} // namespace

Refusal::Refusal(ErrorCode code, contract::FailureReport report)
    : sdbus::Error(std::string(error_name(code)), contract::failure_report_english(report)), report_(std::move(report))
{
}

Refusal make_error(ErrorCode code, const contract::Message& failure)
{
    return Refusal(code, { failure, {} });
}

Refusal make_error(ErrorCode code, std::string_view key, const contract::Message& failure)
{
    return Refusal(code, { failure, std::string(key) });
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

std::optional<contract::FailureReport> failure_report_of(const std::exception& error)
{
    if (const auto* refusal = dynamic_cast<const Refusal*>(&error))
        return refusal->report();
    if (const auto* engine_error = dynamic_cast<const engine::Error*>(&error)) {
        const contract::Message* failure = engine_error->failure();
        if (!failure)
            return std::nullopt;
        const auto* parameter = dynamic_cast<const engine::ParameterError*>(&error);
        return contract::FailureReport { *failure, parameter ? parameter->key() : std::string() };
    }
    return std::nullopt;
}

Refusal reply_error(const std::exception& error)
{
    if (const auto* refusal = dynamic_cast<const Refusal*>(&error))
        return *refusal;
    if (const auto* bus_error = dynamic_cast<const sdbus::Error*>(&error)) {
        if (bus_error->getName().starts_with(contract::error_prefix))
            return Refusal(*bus_error);
        // Another service's words: no catalogue of ours has them.
        return Refusal(named_error(ErrorCode::Failed, bus_error->getName() + ": " + bus_error->getMessage()));
    }
    if (auto report = failure_report_of(error))
        return Refusal(error_code_of(error), std::move(*report));
    return Refusal(named_error(error_code_of(error), error.what()));
}

} // namespace diskbench::service
