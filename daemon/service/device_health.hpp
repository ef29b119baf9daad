// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../system/device_facts.hpp"
#include "../system/drive_health.hpp"
#include "blocking_probes.hpp"
#include "main_loop.hpp"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::service {

// The daemon's own health readings (system/drive_health.hpp) of the disks
// udisks keeps none for: each disk read on a probe thread when it appears
// and again every health_interval() while it is there (NVMe every 30 s, so
// a critical warning shows within that; ATA every 10 minutes, as udisks
// does). A partition reports its disk's. The bus thread never waits for a
// drive.
class DeviceHealth {
public:
    // `changed` runs on the loop thread with the disk's name when a
    // reading differs from the one before.
    DeviceHealth(MainLoop& loop, BlockingProbes& probes, std::function<void(const std::string& disk)> changed);
    ~DeviceHealth();
    DeviceHealth(const DeviceHealth&) = delete;
    DeviceHealth& operator=(const DeviceHealth&) = delete;

    // What is known of the health of `facts`' disk (nullopt: nothing yet,
    // or not a drive the daemon reads), its first read started when new.
    std::optional<system::DeviceFacts::SmartHealth> health_of(const system::DeviceFacts& facts);
    // Forgets the disks none of `present` is on.
    void keep_only(const std::vector<system::DeviceFacts>& present);

    // The disk a device is on: itself, or a partition's disk ("sda" for
    // "sda1"), from sysfs; "" when unknown.
    static std::string disk_of(const std::string& name);

private:
    struct Disk {
        system::HealthReader reader = system::HealthReader::none;
        std::string node;    // "/dev/sda"
        dev_t number = 0;
        std::optional<system::DeviceFacts::SmartHealth> known;
        MainLoop::TimerId next = 0;
    };
    void read(const std::string& disk);
    // Reads DISK again after its reader's interval.
    void schedule(const std::string& disk, Disk& state);
    void learn(const std::string& disk, std::optional<system::DeviceFacts::SmartHealth> health);

    MainLoop& loop_;
    BlockingProbes& probes_;
    std::function<void(const std::string&)> changed_;
    std::map<std::string, Disk> disks_;
};

} // namespace diskbench::service
