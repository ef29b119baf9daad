// SPDX-License-Identifier: GPL-3.0-or-later
// Where a drive's temperature comes from, on made-up sysfs trees laid out
// like the kernel's (symlinks included), so no real sensor is needed.
#include "scratch.hpp"
#include "system/drive_temperature.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace diskbench;
using namespace diskbench::system;
namespace fs = std::filesystem;

namespace {

void write(const fs::path& file, const std::string& text)
{
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text << '\n';
}

// /sys/devices/.../nvme/nvme0/nvme0n1[/nvme0n1p1] with the controller's
// hwmon, linked from /sys/block and /sys/class/nvme as the kernel does.
fs::path fake_nvme(const fs::path& root, bool thresholds)
{
    const fs::path controller = root / "devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0";
    const fs::path disk = controller / "nvme0n1";
    fs::create_directories(disk / "nvme0n1p1");
    write(disk / "nvme0n1p1/partition", "1");
    fs::create_directory_symlink("../../devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0", disk / "device");
    fs::create_directories(root / "block");
    fs::create_directory_symlink(disk, root / "block/nvme0n1");
    fs::create_directories(root / "class/nvme");
    fs::create_directory_symlink(controller, root / "class/nvme/nvme0");
    const fs::path hwmon = controller / "hwmon2";
    write(hwmon / "name", "nvme");
    write(hwmon / "temp1_input", "40850");
    if (thresholds) {
        write(hwmon / "temp1_max", "81850");
        write(hwmon / "temp1_crit", "84850");
    }
    return hwmon;
}

// A SATA disk sda (with partition sda1); `drivetemp` adds its hwmon.
fs::path fake_sata(const fs::path& root, bool drivetemp)
{
    const fs::path scsi = root / "devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0";
    const fs::path disk = scsi / "block/sda";
    fs::create_directories(disk / "sda1");
    write(disk / "sda1/partition", "1");
    fs::create_directory_symlink(scsi, disk / "device");
    fs::create_directories(root / "block");
    fs::create_directory_symlink(disk, root / "block/sda");
    const fs::path hwmon = scsi / "hwmon/hwmon4";
    if (drivetemp) {
        write(hwmon / "name", "drivetemp");
        write(hwmon / "temp1_input", "33000");
        write(hwmon / "temp1_crit", "60000");
    }
    return hwmon;
}

} // namespace

TEST_CASE("an NVMe namespace and its partitions read the controller's hwmon", "[daemon-parts][temperature]")
{
    testing::ScratchDir root;
    const fs::path hwmon = fake_nvme(root.path(), true);
    for (const char* name : { "nvme0n1", "nvme0n1p1" }) {
        INFO(name);
        const TemperatureSensor sensor = find_hwmon_sensor(name, root.path());
        CHECK(sensor.source == "nvme-hwmon");
        CHECK(fs::equivalent(sensor.directory, hwmon));
        const TemperatureReading reading = read_hwmon_sensor(sensor);
        CHECK(reading.source == "nvme-hwmon");
        CHECK(reading.celsius == Approx(40.85));
        CHECK(reading.max_celsius == Approx(81.85));
        CHECK(reading.crit_celsius == Approx(84.85));
    }
}

TEST_CASE("a sensor read twice follows the value in between", "[daemon-parts][temperature]")
{
    testing::ScratchDir root;
    const fs::path hwmon = fake_nvme(root.path(), false);
    const TemperatureSensor sensor = find_hwmon_sensor("nvme0n1", root.path());
    const TemperatureReading first = read_hwmon_sensor(sensor);
    CHECK(first.celsius == Approx(40.85));
    CHECK(first.max_celsius == 0); // no thresholds given: none made up
    CHECK(first.crit_celsius == 0);
    write(hwmon / "temp1_input", "57125");
    CHECK(read_hwmon_sensor(sensor).celsius == Approx(57.125));
    // A sensor that went away reads as unknown, not as the last value.
    fs::remove(hwmon / "temp1_input");
    CHECK_FALSE(read_hwmon_sensor(sensor).known());
    CHECK(read_hwmon_sensor(sensor).celsius == 0);
}

TEST_CASE("an NVMe disk behind a multipath subsystem finds its controller", "[daemon-parts][temperature]")
{
    testing::ScratchDir root;
    const fs::path subsystem = root.path() / "devices/virtual/nvme-subsystem/nvme-subsys0";
    const fs::path controller = root.path() / "devices/pci0000:00/0000:01:00.0/nvme/nvme0";
    fs::create_directories(subsystem / "nvme0n1");
    fs::create_directories(controller);
    fs::create_directory_symlink(controller, subsystem / "nvme0");
    fs::create_directory_symlink(subsystem, subsystem / "nvme0n1/device");
    fs::create_directories(root.path() / "block");
    fs::create_directory_symlink(subsystem / "nvme0n1", root.path() / "block/nvme0n1");
    write(controller / "hwmon1/temp1_input", "38000");
    const TemperatureSensor sensor = find_hwmon_sensor("nvme0n1", root.path());
    CHECK(sensor.source == "nvme-hwmon");
    CHECK(read_hwmon_sensor(sensor).celsius == Approx(38.0));
}

TEST_CASE("a SATA disk reads drivetemp when it is loaded", "[daemon-parts][temperature]")
{
    testing::ScratchDir root;
    fake_sata(root.path(), true);
    for (const char* name : { "sda", "sda1" }) {
        INFO(name);
        const TemperatureReading reading = read_hwmon_sensor(find_hwmon_sensor(name, root.path()));
        CHECK(reading.source == "drivetemp");
        CHECK(reading.celsius == Approx(33.0));
        CHECK(reading.crit_celsius == Approx(60.0));
        CHECK(reading.max_celsius == 0);
    }
}

TEST_CASE("no sensor: no drivetemp, a loop device, an unknown name", "[daemon-parts][temperature]")
{
    testing::ScratchDir root;
    fake_sata(root.path(), false);
    fs::create_directories(root.path() / "devices/virtual/block/loop3");
    fs::create_directory_symlink(root.path() / "devices/virtual/block/loop3", root.path() / "block/loop3");
    for (const char* name : { "sda", "sda1", "loop3", "sdz", "", "../sda" }) {
        INFO(name);
        const TemperatureSensor sensor = find_hwmon_sensor(name, root.path());
        CHECK(sensor.source.empty());
        CHECK_FALSE(read_hwmon_sensor(sensor).known());
    }
    // A sysfs root that does not exist at all.
    CHECK(find_hwmon_sensor("sda", root.path() / "missing").source.empty());
}

TEST_CASE("udisks' SmartTemperature is Kelvin, 0 unknown", "[daemon-parts][temperature]")
{
    const TemperatureReading reading = reading_from_smart(314.15);
    CHECK(reading.source == "udisks-smart");
    CHECK(reading.celsius == Approx(41.0));
    CHECK_FALSE(reading_from_smart(0).known());
    CHECK(reading_from_smart(0).celsius == 0);
}
