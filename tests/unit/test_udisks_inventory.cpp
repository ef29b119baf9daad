// SPDX-License-Identifier: GPL-3.0-or-later
// The rules that turn udisks2's objects into diskbench devices, on made-up
// udisks data shaped like what udisksd 2.9 sends (checked against a real
// udisksd by the integration tests).
#include "system/smart_attributes.hpp"
#include "system/udisks_inventory.hpp"

#include <catch2/catch.hpp>

#include <sys/sysmacros.h>

#include <algorithm>

using namespace diskbench::system;

namespace {

std::vector<std::uint8_t> bytes(const std::string& text)
{
    std::vector<std::uint8_t> out(text.begin(), text.end());
    out.push_back(0);
    return out;
}

ObjectInterfaces block(const std::string& node, std::uint64_t size, const std::string& drive = "/",
                       dev_t number = 0)
{
    return { { "org.freedesktop.UDisks2.Block",
               { { "Device", sdbus::Variant(bytes(node)) },
                 { "Size", sdbus::Variant(size) },
                 { "Drive", sdbus::Variant(sdbus::ObjectPath(drive)) },
                 { "DeviceNumber", sdbus::Variant(static_cast<std::uint64_t>(number)) } } } };
}

const DeviceFacts* named(const std::vector<DeviceFacts>& devices, const std::string& name)
{
    for (const auto& device : devices)
        if (device.name == name)
            return &device;
    return nullptr;
}

} // namespace

TEST_CASE("udisks objects become devices with drive identity and mount state", "[inventory]")
{
    ManagedObjects objects;
    const sdbus::ObjectPath drive("/org/freedesktop/UDisks2/drives/Samsung_SSD_1");
    objects[drive] = { { "org.freedesktop.UDisks2.Drive",
                         { { "Model", sdbus::Variant(std::string("Samsung SSD 860")) },
                           { "Vendor", sdbus::Variant(std::string("ATA")) },
                           { "Serial", sdbus::Variant(std::string("S3Z1NB0K")) },
                           { "WWN", sdbus::Variant(std::string("0x5002538e40a1b2c3")) },
                           { "Revision", sdbus::Variant(std::string("RVT01B6Q")) },
                           { "RotationRate", sdbus::Variant(std::int32_t { 0 }) },
                           { "Removable", sdbus::Variant(false) },
                           { "ConnectionBus", sdbus::Variant(std::string("")) } } } };
    const sdbus::ObjectPath sda("/org/freedesktop/UDisks2/block_devices/sda");
    objects[sda] = block("/dev/sda", 500'107'862'016, drive, makedev(8, 0));
    objects[sda]["org.freedesktop.UDisks2.PartitionTable"] = {};
    const sdbus::ObjectPath sda1("/org/freedesktop/UDisks2/block_devices/sda1");
    objects[sda1] = block("/dev/sda1", 536'870'912, drive, makedev(8, 1));
    objects[sda1]["org.freedesktop.UDisks2.Partition"] = { { "Table", sdbus::Variant(sda) } };
    objects[sda1]["org.freedesktop.UDisks2.Filesystem"]
        = { { "MountPoints", sdbus::Variant(std::vector<std::vector<std::uint8_t>> { bytes("/boot/efi") }) } };
    const sdbus::ObjectPath loop("/org/freedesktop/UDisks2/block_devices/loop3");
    objects[loop] = block("/dev/loop3", 64 << 20, "/", makedev(7, 3));
    objects[loop]["org.freedesktop.UDisks2.Loop"] = {};
    objects["/org/freedesktop/UDisks2/block_devices/loop4"] = block("/dev/loop4", 0); // nothing attached
    objects["/org/freedesktop/UDisks2/block_devices/zram0"] = block("/dev/zram0", 8 << 20);
    objects["/org/freedesktop/UDisks2/block_devices/ram0"] = block("/dev/ram0", 8 << 20);
    objects["/org/freedesktop/UDisks2/Manager"] = { { "org.freedesktop.UDisks2.Manager", {} } };

    std::vector<dev_t> asked;
    const auto devices = devices_from_udisks(objects, [&](dev_t number) {
        asked.push_back(number);
        QueueFacts facts;
        facts.logical_block_size = 4096;
        return facts;
    });

    REQUIRE(devices.size() == 3);
    const DeviceFacts* disk = named(devices, "sda");
    REQUIRE(disk);
    CHECK(disk->kind == "disk");
    CHECK(disk->node == "/dev/sda");
    CHECK(disk->model == "Samsung SSD 860");
    CHECK(disk->serial == "S3Z1NB0K");
    CHECK(disk->wwn == "0x5002538e40a1b2c3");
    CHECK(disk->revision == "RVT01B6Q");
    CHECK(disk->rotation_rate == 0);
    CHECK(disk->udisks_drive == drive);
    CHECK(disk->mounted); // through its partition
    CHECK(disk->in_use());
    CHECK(disk->queue.logical_block_size == 4096);
    CHECK(disk->device_number == makedev(8, 0));

    const DeviceFacts* partition = named(devices, "sda1");
    REQUIRE(partition);
    CHECK(partition->kind == "partition");
    CHECK(partition->mounted);
    CHECK(partition->parent_block == sda); // so a job on sda makes sda1 busy and back
    CHECK(disk->parent_block.empty());

    const DeviceFacts* loop_device = named(devices, "loop3");
    REQUIRE(loop_device);
    CHECK(loop_device->kind == "loop");
    CHECK(loop_device->udisks_drive == "/");
    CHECK(loop_device->model.empty());
    CHECK(loop_device->rotation_rate == -1);
    CHECK_FALSE(loop_device->mounted);
    CHECK_FALSE(loop_device->in_use());

    CHECK(asked.size() == 3);
}

TEST_CASE("properties of unexpected types are ignored, not fatal", "[inventory]")
{
    ManagedObjects objects;
    objects["/org/freedesktop/UDisks2/block_devices/sdb"] = {
        { "org.freedesktop.UDisks2.Block",
          { { "Device", sdbus::Variant(std::string("/dev/sdb")) }, // a string instead of ay
            { "Size", sdbus::Variant(std::int32_t { 5 }) } } }
    };
    CHECK(devices_from_udisks(objects, nullptr).empty());
}

TEST_CASE("swap on a partition marks the disk in use", "[inventory]")
{
    ManagedObjects objects;
    const sdbus::ObjectPath vdb("/org/freedesktop/UDisks2/block_devices/vdb");
    objects[vdb] = block("/dev/vdb", 1 << 30, "/", makedev(254, 16));
    const sdbus::ObjectPath vdb1("/org/freedesktop/UDisks2/block_devices/vdb1");
    objects[vdb1] = block("/dev/vdb1", 1 << 29, "/", makedev(254, 17));
    objects[vdb1]["org.freedesktop.UDisks2.Partition"] = { { "Table", sdbus::Variant(vdb) } };
    objects[vdb1]["org.freedesktop.UDisks2.Swapspace"] = { { "Active", sdbus::Variant(true) } };
    const auto devices = devices_from_udisks(objects, nullptr);
    REQUIRE(devices.size() == 2);
    CHECK(named(devices, "vdb")->in_use());
    CHECK_FALSE(named(devices, "vdb")->mounted);
    CHECK(named(devices, "vdb1")->swap_active);
}

TEST_CASE("what no block device has is no device: number 0:0, a node that is not plain text", "[inventory]")
{
    // What a forged InterfacesAdded would carry (the client drops those
    // unless udisksd sent them; this is the second lock): a "node" that is
    // a link to a file (a regular file's st_rdev is 0), and one that sd-bus
    // could not send as a string.
    ManagedObjects objects;
    objects["/org/freedesktop/UDisks2/block_devices/fake"] = block("/dev/shadow-link", 1 << 20, "/", 0);
    objects["/org/freedesktop/UDisks2/block_devices/odd"]
        = block(std::string("/dev/odd\xff\xfe"), 1 << 20, "/", makedev(7, 9));
    objects["/org/freedesktop/UDisks2/block_devices/newline"]
        = block(std::string("/dev/a\nb"), 1 << 20, "/", makedev(7, 10));
    objects["/org/freedesktop/UDisks2/block_devices/loop8"] = block("/dev/loop8", 1 << 20, "/", makedev(7, 8));
    const auto devices = devices_from_udisks(objects, nullptr);
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].node == "/dev/loop8");
}

TEST_CASE("an ATA drive's SMART temperature is taken only while SMART is on", "[inventory]")
{
    ManagedObjects objects;
    const sdbus::ObjectPath drive("/org/freedesktop/UDisks2/drives/WDC_1");
    objects[drive] = { { "org.freedesktop.UDisks2.Drive", { { "Model", sdbus::Variant(std::string("WDC")) } } },
                       { "org.freedesktop.UDisks2.Drive.Ata",
                         { { "SmartEnabled", sdbus::Variant(true) },
                           { "SmartTemperature", sdbus::Variant(310.15) } } } };
    objects["/org/freedesktop/UDisks2/block_devices/sdb"] = block("/dev/sdb", 1 << 30, drive, makedev(8, 16));
    auto devices = devices_from_udisks(objects, {});
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].smart_temperature_kelvin == Approx(310.15));

    objects[drive]["org.freedesktop.UDisks2.Drive.Ata"]["SmartEnabled"] = sdbus::Variant(false);
    devices = devices_from_udisks(objects, {});
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].smart_temperature_kelvin == 0);
}

TEST_CASE("SMART attribute counts: the six that tell a dying drive, joined to their drive's devices", "[inventory]")
{
    const auto row = [](std::uint8_t id, std::int64_t pretty) {
        return SmartAttribute(id, "name", 0x33, 100, 100, 10, pretty, 3, std::map<std::string, sdbus::Variant> {});
    };
    // 194 (temperature) and 9 (power-on hours) are not among them; a
    // negative raw value is not a count.
    const SmartCounts counts = failure_counts({ row(5, 12), row(9, 40000), row(194, 311150), row(197, 3),
                                                row(198, -1), row(199, 0) });
    CHECK(counts == SmartCounts { { 5, 12 }, { 197, 3 }, { 199, 0 } });

    ManagedObjects objects;
    const sdbus::ObjectPath drive("/org/freedesktop/UDisks2/drives/WDC_1");
    objects[drive] = { { "org.freedesktop.UDisks2.Drive", { { "Model", sdbus::Variant(std::string("WDC")) } } },
                       { "org.freedesktop.UDisks2.Drive.Ata",
                         { { "SmartEnabled", sdbus::Variant(true) }, { "SmartSupported", sdbus::Variant(true) } } } };
    objects["/org/freedesktop/UDisks2/block_devices/sdb"] = block("/dev/sdb", 1 << 30, drive, makedev(8, 16));
    auto devices = devices_from_udisks(objects, {}, { { std::string(drive), counts } });
    REQUIRE(devices.size() == 1);
    CHECK(devices[0].smart.counts == counts);
    // With SMART off the counts are not the drive's state now: left out.
    objects[drive]["org.freedesktop.UDisks2.Drive.Ata"]["SmartEnabled"] = sdbus::Variant(false);
    devices = devices_from_udisks(objects, {}, { { std::string(drive), counts } });
    CHECK(devices[0].smart.counts.empty());
}

TEST_CASE("a disk's stable name is its bus's by-id link, the same whatever order udev gives", "[inventory]")
{
    const auto links = [](std::vector<std::string> paths) {
        std::vector<std::vector<std::uint8_t>> out;
        for (const auto& p : paths)
            out.push_back(bytes(p));
        return out;
    };
    const sdbus::ObjectPath sda("/org/freedesktop/UDisks2/block_devices/sda");
    const sdbus::ObjectPath loop0("/org/freedesktop/UDisks2/block_devices/loop0");
    for (const bool reversed : { false, true }) {
        std::vector<std::string> paths { "/dev/disk/by-path/pci-0000:00:17.0-ata-1",
                                         "/dev/disk/by-id/wwn-0x5002538e40a1b2c3",
                                         "/dev/disk/by-id/ata-Samsung_SSD_860_S3Z1NB0K",
                                         "/dev/disk/by-diskseq/1" };
        if (reversed)
            std::reverse(paths.begin(), paths.end());
        ManagedObjects objects;
        objects[sda] = block("/dev/sda", 1 << 30, "/", makedev(8, 0));
        objects[sda]["org.freedesktop.UDisks2.Block"]["Symlinks"] = sdbus::Variant(links(paths));
        objects[loop0] = block("/dev/loop0", 1 << 30, "/", makedev(7, 0));
        objects[loop0]["org.freedesktop.UDisks2.Block"]["Symlinks"]
            = sdbus::Variant(links({ "/dev/disk/by-loop-inode/2049-1234", "/dev/disk/by-diskseq/7" }));
        const auto devices = devices_from_udisks(objects, nullptr);
        REQUIRE(named(devices, "sda"));
        CHECK(named(devices, "sda")->by_id == "ata-Samsung_SSD_860_S3Z1NB0K");
        REQUIRE(named(devices, "loop0"));
        CHECK(named(devices, "loop0")->by_id.empty());
    }
    // Only a WWN link (some SAS disks): that one, not nothing.
    ManagedObjects objects;
    objects[sda] = block("/dev/sda", 1 << 30, "/", makedev(8, 0));
    objects[sda]["org.freedesktop.UDisks2.Block"]["Symlinks"]
        = sdbus::Variant(links({ "/dev/disk/by-id/wwn-0x5000c500a1b2c3d4" }));
    CHECK(named(devices_from_udisks(objects, nullptr), "sda")->by_id == "wwn-0x5000c500a1b2c3d4");
}
