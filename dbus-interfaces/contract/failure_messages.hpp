// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "messages.hpp"

#include <span>
#include <string>
#include <string_view>

namespace diskbench::contract {

// Why the daemon refused or a job failed, as data: a message id from one
// catalogue (failure_messages.cpp) and named arguments, like the warnings
// (messages.hpp). The engine's errors (daemon/engine/base/errors.hpp) and the
// service's own refusals are built from these; the daemon renders the
// English with render_message() (a D-Bus error's message, Job.ErrorMessage,
// for busctl and older clients) and sends the id and arguments beside it as
// data (Job.Failure, and a refusal's second argument: FailureReport below,
// sdbus_types/failure_data.hpp), from which a client shows the failure in
// the user's language. Reading them back from the English
// (failure_matching.hpp) is left only for a daemon older than API 0.16.
//
// Sizes ("4 KiB"), paths, device names, parameter keys and strerror()
// texts arrive as text arguments. An argument named in
// nested_failure_arguments() may be another catalogue failure (the failure
// an explanation wraps, a type's name, "the folder"): MessageArg::failure,
// which a client translates in turn; any other text stays as it is.

// Every failure the daemon may report.
std::span<const MessageFormat> failure_catalogue() noexcept;
const MessageFormat* find_failure_format(std::string_view id) noexcept;

// The arguments whose text is itself a catalogue failure's English.
std::span<const std::string_view> nested_failure_arguments() noexcept;

// The English text of a failure. Never throws for a bad id or a missing
// argument: the daemon is reporting an error already, and a typo must not
// replace it with another; such a message renders as its id and arguments
// (tests/unit/test_failure_messages.cpp keeps the daemon's ids in the
// catalogue).
std::string failure_english(const Message& message);

// A failure as it travels (Job.Failure; the a{sv} after a refusal's
// message): the catalogue message, and for InvalidArgument the parameter
// it is about, which the English puts before it as "key: ".
struct FailureReport {
    Message failure;
    std::string parameter;
    bool operator==(const FailureReport&) const = default;
};

// The English the daemon sends for `report` ("key: " and the failure).
std::string failure_report_english(const FailureReport& report);

// `report` in the user's language: the catalogue format through
// `translate` (gettext), each nested failure translated the same way, the
// numbers written with `number_text`; `english` (what the daemon sent)
// when the id is not in this client's catalogue (a newer daemon) or the
// arguments do not fit its format.
std::string localized_failure_report(const FailureReport& report, std::string_view english,
                                     const std::function<const char*(const char*)>& translate,
                                     const NumberText& number_text);

} // namespace diskbench::contract
