// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus_driver.hpp"

namespace diskbench::system {

std::string name_owner_changed_rule(const std::string& name)
{
    std::string rule = std::string("type='signal',sender='") + bus_driver_name + "',path='" + bus_driver_path
        + "',interface='org.freedesktop.DBus',member='NameOwnerChanged'";
    if (!name.empty())
        rule += ",arg0='" + name + "'";
    return rule;
}

std::optional<NameOwnerChange> read_name_owner_change(sdbus::Message& message)
{
    if (message.getSender() != bus_driver_name || message.getPath() != bus_driver_path)
        return std::nullopt;
    NameOwnerChange change;
    message >> change.name >> change.old_owner >> change.new_owner;
    return change;
}

std::string name_owner(sdbus::IProxy& bus_driver, const std::string& name)
{
    try {
        std::string owner;
        bus_driver.callMethod("GetNameOwner").onInterface("org.freedesktop.DBus").withArguments(name).storeResultsTo(owner);
        return owner;
    } catch (const sdbus::Error&) {
        return {}; // NameHasNoOwner, or no answer: nobody we could trust
    }
}

} // namespace diskbench::system
