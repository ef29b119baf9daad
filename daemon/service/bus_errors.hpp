// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contract/error_names.hpp"
#include "contract/messages.hpp"

#include <sdbus-c++/Error.h>

#include <exception>
#include <string>
#include <string_view>

namespace diskbench::service {

// The daemon raises the errors of the contract's one table
// (dbus-interfaces/contract/error_names.hpp), which its clients read too.
using contract::ErrorCode;
using contract::error_name;

// The error's message is the failure's English (contract/failure_messages.hpp),
// which a client reads back to translate it; with `key`, "key: " before it,
// as a ParameterError's.
sdbus::Error make_error(ErrorCode code, const contract::Message& failure);
sdbus::Error make_error(ErrorCode code, std::string_view key, const contract::Message& failure);

// The error an engine failure is reported as. Parameters are the caller's
// to fix (InvalidArgument); a full filesystem or a refused permission are
// named, because the caller can act on them (free space, pick another
// folder); everything else is Failed.
ErrorCode error_code_of(const std::exception& error) noexcept;

// What a method replies with for `error`: our own D-Bus errors as they
// are, an engine error under its name, and anything else (an sd-bus or
// dbus-daemon error from a call we made, a bad_alloc) as Failed with the
// original in the message, so callers only ever see names from our table.
sdbus::Error reply_error(const std::exception& error);

} // namespace diskbench::service
