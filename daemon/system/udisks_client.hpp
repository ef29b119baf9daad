// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "smart_attributes.hpp"
#include "udisks_inventory.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace diskbench::system {

// Keeps a copy of udisks2's objects current: one GetManagedObjects() at
// start, then InterfacesAdded/Removed and PropertiesChanged, and a fresh copy
// whenever udisksd (re)appears on the bus. `changed` runs on the bus thread
// after every change, so the daemon can add, remove and update its devices.
//
// Only signals that really come from udisksd count. On the system bus
// anyone may send a signal addressed to us, and sd-bus's local matching
// cannot tell a well-known name from any sender, so a forged
// InterfacesAdded would otherwise add a device whose node is a link to a
// file root may read. Like GLib's GDBusProxy, the client follows which
// unique name owns org.freedesktop.UDisks2 (told only by the bus driver)
// and drops every udisks signal from anyone else.
class UDisksClient {
public:
    UDisksClient(sdbus::IConnection& connection, std::function<void()> changed);
    ~UDisksClient();
    UDisksClient(const UDisksClient&) = delete;
    UDisksClient& operator=(const UDisksClient&) = delete;

    // Blocks for the first copy (so devices exist before the daemon takes its
    // bus name). Returns false, and keeps an empty copy, if udisksd does not
    // answer; it is picked up when it appears.
    bool load();

    [[nodiscard]] const ManagedObjects& objects() const noexcept { return objects_; }
    // The SMART attribute counts of the ATA drives among them, asked for
    // whenever udisks read a drive's SMART data again (`changed` runs
    // when they arrive).
    [[nodiscard]] const SmartCountsByDrive& smart_counts() const noexcept { return smart_.counts(); }
    // The unique bus name udisksd has now, "" when it is not on the bus.
    [[nodiscard]] const std::string& owner() const noexcept { return owner_; }

private:
    void reload_async();
    [[nodiscard]] bool from_udisks(const sdbus::Message& message);
    void on_interfaces_added(sdbus::Message& message);
    void on_interfaces_removed(sdbus::Message& message);
    void on_properties_changed(sdbus::Message& message);
    void on_owner_changed(sdbus::Message& message);
    void objects_changed(); // asks for SMART attributes, then `changed`

    sdbus::IConnection& connection_;
    std::function<void()> changed_;
    std::unique_ptr<sdbus::IProxy> manager_;
    std::unique_ptr<sdbus::IProxy> bus_driver_;
    sdbus::Slot added_match_;
    sdbus::Slot removed_match_;
    sdbus::Slot properties_match_;
    sdbus::Slot owner_match_;
    std::string owner_;
    std::uint64_t ignored_ = 0; // signals dropped as not udisksd's
    ManagedObjects objects_;
    SmartAttributeCache smart_;
};

} // namespace diskbench::system
