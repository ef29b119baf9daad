// SPDX-License-Identifier: GPL-3.0-or-later
#include "drive_health.hpp"

#include "ata_smart.hpp"
#include "udev_handles.hpp"

#include <fstream>

namespace diskbench::system {

namespace {

std::string sysfs_line(const std::string& path)
{
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    while (!line.empty() && line.back() == ' ')
        line.pop_back();
    return line;
}

bool udev_says_ata(dev_t disk)
{
    const UdevContext udev(udev_new());
    if (!udev)
        return false;
    const UdevDevice device(udev_device_new_from_devnum(udev.get(), 'b', disk));
    if (!device)
        return false;
    const char* ata = udev_device_get_property_value(device.get(), "ID_ATA");
    return ata && std::string(ata) == "1";
}

} // namespace

HealthReader health_reader(const std::string& name, dev_t disk)
{
    if (name.find('/') != std::string::npos || name.starts_with("."))
        return HealthReader::none;
    if (name.starts_with("nvme"))
        return HealthReader::nvme;
    if (!name.starts_with("sd"))
        return HealthReader::none;
    if (sysfs_line("/sys/block/" + name + "/device/vendor") == "ATA" || udev_says_ata(disk))
        return HealthReader::ata;
    return HealthReader::none;
}

std::chrono::seconds health_interval(HealthReader reader)
{
    return reader == HealthReader::nvme ? std::chrono::seconds(30) : std::chrono::seconds(600);
}

std::optional<DeviceFacts::SmartHealth> read_drive_health(HealthReader reader, const std::string& node)
{
    DeviceFacts::SmartHealth health;
    if (reader == HealthReader::nvme) {
        auto nvme = read_nvme_health(node);
        if (!nvme)
            return std::nullopt;
        health.known = true;
        health.source = "nvme";
        health.failing = nvme->critical_warning != 0;
        health.power_on_seconds = nvme->power_on_hours * 3600;
        health.nvme = nvme;
        return health;
    }
    if (reader == HealthReader::ata) {
        AtaSmart smart;
        if (read_ata_smart(node, smart) != AtaReadResult::read)
            return std::nullopt;
        health.known = true;
        health.source = "ata-smart";
        health.failing = smart.failing;
        // As udisks (libatasmart) counts them: reallocated and pending.
        health.bad_sectors = smart.raw_or(5, 0) + smart.raw_or(197, 0);
        // Attribute 9 is hours in its low 32 bits on nearly every drive.
        health.power_on_seconds = static_cast<std::uint64_t>(smart.raw_or(9, 0) & 0xffffffff) * 3600;
        health.attributes_failing = smart.attributes_failing;
        for (const std::uint8_t id : { 5, 187, 188, 197, 198, 199 })
            if (smart.raw.count(id))
                health.counts[id] = smart.raw.at(id);
        health.temperature_celsius = smart.temperature_celsius;
        return health;
    }
    return std::nullopt;
}

} // namespace diskbench::system
