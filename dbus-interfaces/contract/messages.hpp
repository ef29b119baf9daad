// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace diskbench::contract {

// The daemon's warnings and notes as data: a message id from one catalogue
// (messages.cpp) and named arguments. The daemon renders the English text
// from the catalogue (Job.Warnings, for busctl) and sends id and arguments
// beside it (Job.WarningMessages); a client translates the catalogue's
// English format through gettext and renders it with the same arguments, so
// the daemon never needs a locale. No GLib here: the engine links it.
//
// A format names its arguments in braces: "{device}", or "{percent:.0f}" for
// a number with a fixed count of decimals (rendered with the caller's
// decimal point, so a Czech client writes 0,25).

using MessageValue = std::variant<std::string, std::int64_t, double>;

struct Message;

struct MessageArg {
    std::string name;
    MessageValue value;
    // An argument that is itself a failure of the catalogue (a type's name,
    // "the folder", the failure an explanation wraps: failure_messages.hpp):
    // that failure as data, so a client translates it from its id rather
    // than from its English; `value` holds the English.
    std::shared_ptr<const Message> failure {};

    MessageArg(std::string n, std::string v) : name(std::move(n)), value(std::move(v)) {}
    MessageArg(std::string n, const char* v) : name(std::move(n)), value(std::string(v)) {}
    MessageArg(std::string n, std::string_view v) : name(std::move(n)), value(std::string(v)) {}
    MessageArg(std::string n, double v) : name(std::move(n)), value(v) {}
    // Defined in failure_messages.cpp, beside the catalogue that renders its English.
    MessageArg(std::string n, const Message& nested_failure);
    template <typename Integer>
        requires std::is_integral_v<Integer>
    MessageArg(std::string n, Integer v) : name(std::move(n)), value(integer_value(v))
    {
    }
    // Name and value, and the nested failure by its contents.
    bool operator==(const MessageArg& other) const;

private:
    // An unsigned count past int64 (a caller's 2^64-1) as its digits, not wrapped to a negative number.
    template <typename Integer>
    static MessageValue integer_value(Integer v)
    {
        if constexpr (std::is_unsigned_v<Integer> && sizeof(Integer) >= sizeof(std::int64_t))
            if (v > static_cast<std::uint64_t>(INT64_MAX))
                return std::to_string(v);
        return static_cast<std::int64_t>(v);
    }
};

struct Message {
    std::string id;
    std::vector<MessageArg> args {};
    // The same id and arguments, in any order (a{sv} and JSON keep none).
    bool operator==(const Message& other) const;
};

struct MessageFormat {
    std::string_view id;
    const char* english; // marked N_() in messages.cpp, so it is also the gettext msgid
};

// Every message the daemon may send.
std::span<const MessageFormat> message_catalogue() noexcept;
const MessageFormat* find_message_format(std::string_view id) noexcept;

// The names a format uses, in order of appearance (each once).
std::vector<std::string> format_argument_names(std::string_view format);

// How a client writes a number with `decimals` decimals (-1: an integer).
using NumberText = std::function<std::string(double value, int decimals)>;
std::string c_number_text(double value, int decimals); // "0.25", the daemon's

// `format` with its arguments filled in. Throws std::invalid_argument when an
// argument the format names is missing or the format is malformed.
std::string render_message(std::string_view format, const std::vector<MessageArg>& args,
                           const NumberText& number_text = c_number_text);

// The English text of a catalogue message. Throws std::invalid_argument for an
// id not in the catalogue: the daemon cannot send a message it did not list.
std::string english_text(const Message& message);

// The text a client shows: the catalogue's format through `translate`
// (gettext), or `english` unchanged when the id is unknown (a newer daemon)
// or the arguments do not fit the format.
std::string localized_text(const Message& message, std::string_view english,
                           const std::function<const char*(const char*)>& translate, const NumberText& number_text);

} // namespace diskbench::contract
