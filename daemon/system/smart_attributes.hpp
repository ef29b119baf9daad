// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "udisks_inventory.hpp"

#include <sdbus-c++/sdbus-c++.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

// The SMART attributes that tell a dying drive, which udisks 2.9 gives only
// through a method call (Drive.Ata.SmartGetAttributes), not as properties:
// 5 reallocated sectors, 187 reported uncorrectable, 188 command timeouts,
// 197 pending sectors, 198 offline uncorrectable, 199 UDMA CRC errors (the
// cable). udisks reads them from the drive itself every 10 minutes
// (SmartUpdated); we ask again only when that changed, so a drive is not
// asked more often than udisks asks it.
namespace diskbench::system {

// One entry of SmartGetAttributes' a(ysqiiixia{sv}): id, name, flags,
// normalized value, worst, threshold, pretty (the raw count for these
// attributes), pretty unit, expansion.
using SmartAttribute = sdbus::Struct<std::uint8_t, std::string, std::uint16_t, std::int32_t, std::int32_t,
                                     std::int32_t, std::int64_t, std::int32_t, std::map<std::string, sdbus::Variant>>;

// The counts of the attributes above that the drive reports, by id. Pure.
SmartCounts failure_counts(const std::vector<SmartAttribute>& attributes);

class SmartAttributeCache {
public:
    // `changed` runs on the bus thread when a drive's counts arrived.
    SmartAttributeCache(sdbus::IConnection& connection, std::function<void()> changed);
    ~SmartAttributeCache();
    SmartAttributeCache(const SmartAttributeCache&) = delete;
    SmartAttributeCache& operator=(const SmartAttributeCache&) = delete;

    // Asks udisks (`owner`, its unique name), without waiting, for the
    // attributes of every ATA drive of OBJECTS with SMART on whose
    // SmartUpdated is not the one its counts were read at; forgets drives
    // that are gone.
    void refresh(const ManagedObjects& objects, const std::string& owner);
    [[nodiscard]] const SmartCountsByDrive& counts() const noexcept { return counts_; }

private:
    struct Drive {
        std::unique_ptr<sdbus::IProxy> proxy;
        std::uint64_t asked_at = 0; // SmartUpdated when last asked
    };
    sdbus::IConnection& connection_;
    std::function<void()> changed_;
    std::string owner_; // udisksd's unique name the proxies call
    std::map<std::string, Drive> drives_;
    SmartCountsByDrive counts_;
};

} // namespace diskbench::system
