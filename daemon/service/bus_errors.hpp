// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contract/error_names.hpp"
#include "contract/failure_messages.hpp"

#include <sdbus-c++/Error.h>

#include <exception>
#include <optional>
#include <string>
#include <string_view>

namespace diskbench::service {

// The daemon raises the errors of the contract's one table
// (dbus-interfaces/contract/error_names.hpp), which its clients read too.
using contract::ErrorCode;
using contract::error_name;

// A D-Bus error of ours and, where it is one of the failure catalogue's,
// that failure as data: the refusal's reply carries it after the message
// (refusal_reply.hpp), a failed job as Job.Failure. It is an sdbus::Error,
// so it is thrown and caught as one; a copy sliced to sdbus::Error keeps
// only the English.
class Refusal : public sdbus::Error {
public:
    Refusal(ErrorCode code, contract::FailureReport report);
    // Words outside the catalogue (an internal error, another service's).
    explicit Refusal(sdbus::Error plain) : sdbus::Error(std::move(plain)) {}
    [[nodiscard]] const std::optional<contract::FailureReport>& report() const noexcept { return report_; }

private:
    std::optional<contract::FailureReport> report_;
};

// The error's message is the failure's English (contract/failure_messages.hpp);
// with `key`, "key: " before it, as a ParameterError's.
Refusal make_error(ErrorCode code, const contract::Message& failure);
Refusal make_error(ErrorCode code, std::string_view key, const contract::Message& failure);

// The error an engine failure is reported as. Parameters are the caller's
// to fix (InvalidArgument); a full filesystem or a refused permission are
// named, because the caller can act on them (free space, pick another
// folder); everything else is Failed.
ErrorCode error_code_of(const std::exception& error) noexcept;

// What a method replies with for `error`: our own D-Bus errors as they
// are, an engine error under its name, and anything else (an sd-bus or
// dbus-daemon error from a call we made, a bad_alloc) as Failed with the
// original in the message, so callers only ever see names from our table.
Refusal reply_error(const std::exception& error);

// The failure behind `error` as data, or nothing when its words are not the
// catalogue's (what reply_error's Refusal carries).
std::optional<contract::FailureReport> failure_report_of(const std::exception& error);

} // namespace diskbench::service
