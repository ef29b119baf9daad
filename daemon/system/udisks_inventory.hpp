// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "device_facts.hpp"

#include <sdbus-c++/Types.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace diskbench::system {

// udisks2's objects as org.freedesktop.DBus.ObjectManager presents them.
using InterfaceProperties = std::map<std::string, sdbus::Variant>;
using ObjectInterfaces = std::map<std::string, InterfaceProperties>;
using ManagedObjects = std::map<sdbus::ObjectPath, ObjectInterfaces>;
// A drive's object path -> its SMART attribute counts (smart_attributes.hpp).
using SmartCountsByDrive = std::map<std::string, SmartCounts>;

// The devices diskbenchd offers, from udisks2's objects: every Block that is
// a whole disk, a partition or a loop device with a size, joined with its
// Drive (identity), its filesystems' mount points (including those of a
// disk's partitions) and swap state; `queue_facts` adds the sysfs facts,
// `smart_counts` a drive's SMART attribute counts.
// ram and zram devices, empty loop devices and zero-size media are left out.
// Pure: no D-Bus, so the rules are tested on made-up udisks data.
std::vector<DeviceFacts> devices_from_udisks(const ManagedObjects& objects,
                                             const std::function<QueueFacts(dev_t)>& queue_facts,
                                             const SmartCountsByDrive& smart_counts = {});

} // namespace diskbench::system
