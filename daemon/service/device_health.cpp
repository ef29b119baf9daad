// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_health.hpp"

#include "log.hpp"

#include "../engine/storage/sysfs.hpp"
#include "../system/drive_temperature.hpp"

#include <filesystem>
#include <set>

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
    return system::disk_of(name).value_or("");
}

std::optional<system::DeviceFacts::SmartHealth> DeviceHealth::health_of(const system::DeviceFacts& facts)
{
    const std::string name = disk_of(facts.name);
    if (name.empty())
        return std::nullopt;
    if (auto found = disks_.find(name); found != disks_.end())
        return found->second.known;
    const auto number = engine::storage::Sysfs::device_number(fs::path("/sys/block") / name);
    if (!number)
        return std::nullopt;
    Disk disk;
    disk.number = *number;
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
    const bool started = probes_.start("health " + name, [this, name, reader, node, number]() -> BlockingProbes::Answer {
        auto health = system::read_drive_health(reader, node);
        return [this, name, number, health = std::move(health)] {
            const auto disk = disks_.find(name);
            // Another disk may have taken the name meanwhile.
            if (disk == disks_.end() || disk->second.number != number)
                return;
            learn(name, health);
        };
    });
    // The last read of this drive still out (a drive that does not
    // answer), or too many probes out: asked again at the next interval.
    if (!started)
        schedule(name, found->second);
}

void DeviceHealth::schedule(const std::string& name, Disk& disk)
{
    disk.next = loop_.add_timer(std::chrono::duration_cast<std::chrono::milliseconds>(system::health_interval(disk.reader)),
                                [this, name] { read(name); });
}

void DeviceHealth::learn(const std::string& name, std::optional<system::DeviceFacts::SmartHealth> health)
{
    Disk& disk = disks_.at(name);
    schedule(name, disk);
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
    std::set<std::string> listed;
    for (const auto& facts : present)
        listed.insert(disk_of(facts.name));
    for (auto it = disks_.begin(); it != disks_.end();) {
        if (listed.count(it->first)) {
            ++it;
            continue;
        }
        if (it->second.next)
            loop_.cancel_timer(it->second.next);
        it = disks_.erase(it);
    }
}

} // namespace diskbench::service
