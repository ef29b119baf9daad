// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sdbus-c++/sdbus-c++.h>

#include <optional>
#include <string>

namespace diskbench::system {

// The message bus itself (org.freedesktop.DBus), and the one signal of it
// the daemon follows: which connection owns a name.
inline constexpr const char* bus_driver_name = "org.freedesktop.DBus";
inline constexpr const char* bus_driver_path = "/org/freedesktop/DBus";

struct NameOwnerChange {
    std::string name;
    std::string old_owner;
    std::string new_owner; // "" when the name went away
};

// A match rule for NameOwnerChanged from the bus driver; with `name`, only
// for that name (arg0). The rule only narrows what the bus routes to us:
// sd-bus matches a well-known sender= locally against any sender, so
// read_name_owner_change() is what checks.
std::string name_owner_changed_rule(const std::string& name = {});

// The change a NameOwnerChanged signal reports, or nothing when it did not
// come from the bus driver. The bus sets every message's sender itself, and
// only its own messages carry "org.freedesktop.DBus": a client that sends a
// NameOwnerChanged to us has its unique name there instead.
std::optional<NameOwnerChange> read_name_owner_change(sdbus::Message& message);

// The unique name owning `name` now, "" when nobody does (or the bus does
// not answer).
std::string name_owner(sdbus::IProxy& bus_driver, const std::string& name);

} // namespace diskbench::system
