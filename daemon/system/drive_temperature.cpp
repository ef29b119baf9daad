// SPDX-License-Identifier: GPL-3.0-or-later
#include "drive_temperature.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <optional>
#include <vector>

namespace diskbench::system {

namespace fs = std::filesystem;

namespace {

// sysfs attributes are one short line; a missing one is std::nullopt.
std::optional<std::string> read_line(const fs::path& file)
{
    std::ifstream in(file);
    std::string line;
    if (!in || !std::getline(in, line))
        return std::nullopt;
    while (!line.empty() && (line.back() == '\n' || line.back() == ' '))
        line.pop_back();
    return line;
}

// hwmon temperatures are millidegrees Celsius.
std::optional<double> millidegrees(const fs::path& file)
{
    const auto text = read_line(file);
    if (!text || text->empty())
        return std::nullopt;
    long long value = 0;
    const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (error != std::errc() || end != text->data() + text->size())
        return std::nullopt;
    return static_cast<double>(value) / 1000.0;
}

bool numbered(const std::string& name, std::string_view prefix)
{
    if (!name.starts_with(prefix) || name.size() == prefix.size())
        return false;
    for (std::size_t i = prefix.size(); i < name.size(); ++i)
        if (!std::isdigit(static_cast<unsigned char>(name[i])))
            return false;
    return true;
}

// The first hwmonN with a temp1_input in `device`, either directly below it
// (class devices such as an NVMe controller) or in its "hwmon" folder (bus
// devices such as a SCSI disk, where drivetemp attaches). Sorted, so the
// choice does not depend on directory order.
std::optional<fs::path> hwmon_in(const fs::path& device)
{
    std::vector<fs::path> found;
    for (const fs::path& folder : { device, device / "hwmon" }) {
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(folder, error)) {
            const std::string name = entry.path().filename().string();
            std::error_code ignored;
            if (numbered(name, "hwmon") && fs::exists(entry.path() / "temp1_input", ignored))
                found.push_back(entry.path());
        }
    }
    if (found.empty())
        return std::nullopt;
    std::sort(found.begin(), found.end());
    return found.front();
}

// The NVMe controllers behind namespace disk `disk` ("nvme0n1"): its
// "device" is the controller, or with native multipath the subsystem, whose
// folder holds its controllers; and the controller named like the
// namespace ("nvme0" for "nvme0n1"), as /sys/class/nvme lists it.
std::vector<fs::path> nvme_controllers(const std::string& disk, const fs::path& sysfs_root)
{
    std::vector<fs::path> controllers;
    const fs::path device = sysfs_root / "block" / disk / "device";
    controllers.push_back(device);
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(device, error))
        if (numbered(entry.path().filename().string(), "nvme"))
            controllers.push_back(entry.path());
    const auto n = disk.find('n', 4);
    if (n != std::string::npos)
        controllers.push_back(sysfs_root / "class" / "nvme" / disk.substr(0, n));
    return controllers;
}

} // namespace

std::optional<std::string> disk_of(const std::string& name, const fs::path& sysfs_root)
{
    // Kernel names have no slashes; anything else is not ours to look up.
    if (name.empty() || name.find('/') != std::string::npos || name.starts_with("."))
        return std::nullopt;
    std::error_code error;
    if (fs::exists(sysfs_root / "block" / name, error))
        return name;
    for (const auto& entry : fs::directory_iterator(sysfs_root / "block", error)) {
        std::error_code ignored;
        if (fs::exists(entry.path() / name / "partition", ignored))
            return entry.path().filename().string();
    }
    return std::nullopt;
}

TemperatureSensor find_hwmon_sensor(const std::string& name, const fs::path& sysfs_root)
{
    const auto disk = disk_of(name, sysfs_root);
    if (!disk)
        return {};
    if (numbered(disk->substr(0, disk->find('n', 4)), "nvme")) {
        for (const fs::path& controller : nvme_controllers(*disk, sysfs_root))
            if (auto hwmon = hwmon_in(controller))
                return { "nvme-hwmon", *hwmon };
        return {};
    }
    // drivetemp names its hwmon "drivetemp"; a SCSI device has no other.
    if (auto hwmon = hwmon_in(sysfs_root / "block" / *disk / "device");
        hwmon && read_line(*hwmon / "name").value_or("") == "drivetemp")
        return { "drivetemp", *hwmon };
    return {};
}

TemperatureReading read_hwmon_sensor(const TemperatureSensor& sensor)
{
    TemperatureReading reading;
    if (sensor.source.empty())
        return reading;
    const auto input = millidegrees(sensor.directory / "temp1_input");
    if (!input)
        return reading;
    reading.celsius = *input;
    reading.source = sensor.source;
    reading.max_celsius = millidegrees(sensor.directory / "temp1_max").value_or(0);
    reading.crit_celsius = millidegrees(sensor.directory / "temp1_crit").value_or(0);
    return reading;
}

TemperatureReading reading_from_smart(double kelvin)
{
    TemperatureReading reading;
    if (kelvin <= 0)
        return reading;
    reading.celsius = kelvin - 273.15;
    reading.source = "udisks-smart";
    return reading;
}

TemperatureReading reading_from_own_smart(double celsius)
{
    TemperatureReading reading;
    if (celsius <= 0)
        return reading;
    reading.celsius = celsius;
    reading.source = "ata-smart";
    return reading;
}

} // namespace diskbench::system
