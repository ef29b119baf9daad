// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace diskbench::system {

// Where a block device's temperature comes from.
//   "nvme-hwmon"   the NVMe controller's hwmon (/sys/class/nvme/nvmeX/hwmonN)
//   "drivetemp"    the drivetemp module's hwmon of a SATA/SAS disk
//                  (/sys/block/sdX/device/hwmon/hwmonN), when it is loaded
//   "udisks-smart" udisks' Drive.Ata SmartTemperature (SMART data udisksd
//                  polls itself, so reading it costs us nothing)
//   "ata-smart"    attribute 194 or 190 of the daemon's own SMART reading,
//                  for drives udisks made no Drive.Ata for
//   ""             none
struct TemperatureSensor {
    std::string source;              // "nvme-hwmon", "drivetemp" or "" (udisks is not a file)
    std::filesystem::path directory; // the hwmon directory holding temp1_input
};

struct TemperatureReading {
    double celsius = 0;      // 0 when unknown
    double max_celsius = 0;  // the sensor's temp1_max (a warning threshold), 0 when it has none
    double crit_celsius = 0; // temp1_crit, 0 when it has none
    std::string source;      // as TemperatureSensor, plus "udisks-smart"; "" when unknown

    [[nodiscard]] bool known() const noexcept { return !source.empty(); }
    bool operator==(const TemperatureReading&) const = default;
};

// Finds the hwmon sensor of block device `name` (the kernel name: "nvme0n1",
// "nvme0n1p2", "sda", "sda1"; a partition uses its disk's sensor) below
// `sysfs_root`. Only the tests pass another root than "/sys", to read a
// made-up tree; the daemon always uses the default. Cheap (a few stat
// calls), reads no sensor.
TemperatureSensor find_hwmon_sensor(const std::string& name, const std::filesystem::path& sysfs_root = "/sys");

// The disk block device `name` belongs to: itself when /sys/block has it,
// else the disk whose folder holds it (sysfs puts sda1 in /sys/block/sda/);
// nullopt when sysfs has neither. A few stat calls.
std::optional<std::string> disk_of(const std::string& name, const std::filesystem::path& sysfs_root = "/sys");

// Reads the sensor now; an unknown reading when it has no source or its
// temp1_input cannot be read (the device went away, the driver refused).
TemperatureReading read_hwmon_sensor(const TemperatureSensor& sensor);

// The reading of udisks' SmartTemperature (Kelvin; 0 means unknown).
TemperatureReading reading_from_smart(double kelvin);
// The reading of the daemon's own ATA SMART (drive_health.hpp), source
// "ata-smart" (Celsius; 0 means unknown).
TemperatureReading reading_from_own_smart(double celsius);

} // namespace diskbench::system
