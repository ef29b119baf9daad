// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A failure as data on the bus (API 0.16): Job.Failure, and the a{sv} a
// refusal carries after its message. The daemon writes it, the clients read
// it; both through these two functions, so the shape is spelled once:
//
//   "id"         s      the failure catalogue's id (contract/failure_messages.cpp)
//   "arguments"  a{sv}  the format's {name}s: s text, x counts, d figures, or
//                       a{sv} (this shape again: "id", "arguments") for a
//                       nested failure (a type's name, "the folder", the
//                       failure an explanation wraps)
//   "parameter"  s      InvalidArgument only: the parameter it is about
//
// An empty map: no failure, or one outside the catalogue (an internal error
// or another service's), which only the English text describes.

#include "contract/failure_messages.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>

namespace diskbench::sdbus_types {

using FailureData = std::map<std::string, sdbus::Variant>;

namespace failure_keys {
inline constexpr const char* id = "id";
inline constexpr const char* arguments = "arguments";
inline constexpr const char* parameter = "parameter";
} // namespace failure_keys

inline FailureData message_data(const contract::Message& message)
{
    FailureData args;
    for (const contract::MessageArg& arg : message.args) {
        if (arg.failure)
            args[arg.name] = sdbus::Variant(message_data(*arg.failure));
        else
            std::visit([&](const auto& value) { args[arg.name] = sdbus::Variant(value); }, arg.value);
    }
    return { { failure_keys::id, sdbus::Variant(message.id) }, { failure_keys::arguments, sdbus::Variant(args) } };
}

inline FailureData failure_data(const contract::FailureReport& report)
{
    FailureData data = message_data(report.failure);
    if (!report.parameter.empty())
        data[failure_keys::parameter] = sdbus::Variant(report.parameter);
    return data;
}

namespace detail {

// A nested failure's depth is bounded: a daemon nests one or two deep, and
// a peer's crafted map must not recurse a client's stack away.
inline std::optional<contract::Message> read_message(const FailureData& data, int depth)
{
    const auto id = data.find(failure_keys::id);
    if (depth > 8 || id == data.end() || !id->second.containsValueOfType<std::string>())
        return std::nullopt;
    contract::Message message { id->second.get<std::string>(), {} };
    const auto arguments = data.find(failure_keys::arguments);
    if (arguments == data.end() || !arguments->second.containsValueOfType<FailureData>())
        return message;
    for (const auto& [name, value] : arguments->second.get<FailureData>()) {
        if (value.containsValueOfType<std::string>())
            message.args.emplace_back(name, value.get<std::string>());
        else if (value.containsValueOfType<std::int64_t>())
            message.args.emplace_back(name, value.get<std::int64_t>());
        else if (value.containsValueOfType<double>())
            message.args.emplace_back(name, value.get<double>());
        else if (value.containsValueOfType<FailureData>())
            if (auto nested = read_message(value.get<FailureData>(), depth + 1))
                message.args.emplace_back(name, *nested);
        // Another type: an argument this client cannot render; the format
        // then misses it and the English is shown (localized_failure_report).
    }
    return message;
}

} // namespace detail

// The report in `data`, or nothing when it holds none (an empty map, a
// daemon older than 0.16 that sends no such map, a map without an id).
inline std::optional<contract::FailureReport> failure_report(const FailureData& data)
{
    std::optional<contract::Message> message = detail::read_message(data, 0);
    if (!message)
        return std::nullopt;
    contract::FailureReport report { std::move(*message), {} };
    const auto parameter = data.find(failure_keys::parameter);
    if (parameter != data.end() && parameter->second.containsValueOfType<std::string>())
        report.parameter = parameter->second.get<std::string>();
    return report;
}

} // namespace diskbench::sdbus_types
