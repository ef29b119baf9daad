// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_health.hpp"

#include "log.hpp"

#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>

namespace diskbench::service {

namespace fs = std::filesystem;

DeviceHealth::DeviceHealth(MainLoop& loop, BlockingProbes& probes, std::function<void(const std::string&)> changed)
    : loop_(loop), probes_(probes), changed_(std::move(changed))
{
}

DeviceHealth::~DeviceHealth()
{
    for (const auto& [name, disk] : disks_)
        if (disk.next)
            loop_.cancel_timer(disk.next);
}

std::string DeviceHealth::disk_of(const std::string& name)
{
    if (name.empty() || name.find('/') != std::string::npos || name.starts_with("."))
        return {};
    std::error_code error;
    if (fs::exists(fs::path("/sys/block") / name, error))
        return name;
    const fs::path device = fs::canonical(fs::path("/sys/class/block") / name, error);
    if (error || !fs::exists(device / "partition", error))
        return {};
    return device.parent_path().filename().string();
}

std::optional<system::DeviceFacts::SmartHealth> DeviceHealth::health_of(const system::DeviceFacts& facts)
{
    const std::string name = disk_of(facts.name);
    if (name.empty())
        return std::nullopt;
    if (auto found = disks_.find(name); found != disks_.end())
        return found->second.known;
    Disk disk;
    std::ifstream dev("/sys/block/" + name + "/dev");
    unsigned major_number = 0, minor_number = 0;
    char colon = 0;
    if (!(dev >> major_number >> colon >> minor_number) || colon != ':')
        return std::nullopt;
    disk.number = makedev(major_number, minor_number);
    disk.reader = system::health_reader(name, disk.number);
    disk.node = "/dev/" + name;
    const bool readable = disk.reader != system::HealthReader::none;
    disks_.emplace(name, std::move(disk));
    if (readable)
        read(name);
    return std::nullopt;
}

void DeviceHealth::read(const std::string& name)
{
    const auto found = disks_.find(name);
    if (found == disks_.end())
        return;
    found->second.next = 0;
    const system::HealthReader reader = found->second.reader;
    const std::string node = found->second.node;
    const dev_t number = found->second.number;
    probes_.start("health " + name, [this, name, reader, node, number]() -> BlockingProbes::Answer {
        auto health = system::read_drive_health(reader, node);
        return [this, name, number, health = std::move(health)] {
            const auto disk = disks_.find(name);
            // Another disk may have taken the name meanwhile.
            if (disk == disks_.end() || disk->second.number != number)
                return;
            learn(name, health);
        };
    });
}

void DeviceHealth::learn(const std::string& name, std::optional<system::DeviceFacts::SmartHealth> health)
{
    Disk& disk = disks_.at(name);
    disk.next = loop_.add_timer(std::chrono::duration_cast<std::chrono::milliseconds>(system::health_interval(disk.reader)),
                                [this, name] { read(name); });
    // No answer (an ATA drive in standby, a drive that refused): the last
    // reading stands.
    if (!health || health == disk.known)
        return;
    if (health->nvme && health->nvme->critical_warning
        && (!disk.known || !disk.known->nvme || disk.known->nvme->critical_warning != health->nvme->critical_warning))
        log_warning("{}: NVMe critical warning {:#04x}: {}", disk.node, health->nvme->critical_warning,
                    system::nvme_warning_names(health->nvme->critical_warning));
    disk.known = std::move(health);
    changed_(name);
}

void DeviceHealth::keep_only(const std::vector<system::DeviceFacts>& present)
{
    for (auto it = disks_.begin(); it != disks_.end();) {
        bool listed = false;
        for (const auto& facts : present)
            listed = listed || disk_of(facts.name) == it->first;
        if (listed) {
            ++it;
            continue;
        }
        if (it->second.next)
            loop_.cancel_timer(it->second.next);
        it = disks_.erase(it);
    }
}

} // namespace diskbench::service
