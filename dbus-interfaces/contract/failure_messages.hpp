// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "messages.hpp"

#include <span>
#include <string>
#include <string_view>

namespace diskbench::contract {

// Why the daemon refused or a job failed, as data: a message id from one
// catalogue (failure_messages.cpp) and named arguments, like the warnings
// (messages.hpp). The engine's errors (daemon/engine/errors.hpp) and the
// service's own refusals are built from these; the daemon renders the
// English with render_message() and sends that one text, as a D-Bus
// error's message or Job.ErrorMessage, for a D-Bus error carries no more.
// A client reads the id and arguments back from the English
// (failure_matching.hpp) to show the failure in the user's language.
//
// Sizes ("4 KiB"), paths, device names, parameter keys and strerror()
// texts arrive as text arguments. An argument named in
// nested_failure_arguments() may hold the English of another catalogue
// format (the failure an explanation wraps, a type's name, "the folder"),
// which a client translates in turn; any other text there stays as it is.

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

} // namespace diskbench::contract
