// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "udisks_inventory.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <functional>
#include <memory>

namespace diskbench::system {

// Keeps a copy of udisks2's objects current: one GetManagedObjects() at
// start, then InterfacesAdded/Removed and PropertiesChanged, and a fresh copy
// whenever udisksd (re)appears on the bus. `changed` runs on the bus thread
// after every change, so the daemon can add, remove and update its devices.
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

private:
    void reload_async();
    void on_properties_changed(sdbus::Message& message);

    sdbus::IConnection& connection_;
    std::function<void()> changed_;
    std::unique_ptr<sdbus::IProxy> manager_;
    sdbus::Slot properties_match_;
    sdbus::Slot owner_match_;
    ManagedObjects objects_;
};

} // namespace diskbench::system
