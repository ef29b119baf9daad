// SPDX-License-Identifier: GPL-3.0-or-later
#include "checked_device.hpp"

#include "loop_identity.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

namespace diskbench::engine::storage {

namespace fs = std::filesystem;

namespace {

std::optional<CheckedDevice> device_at(const Sysfs& sysfs, dev_t device)
{
    if (major(device) == 0)
        return std::nullopt;
    auto directory = sysfs.block_directory(device);
    if (!directory)
        return std::nullopt;
    return CheckedDevice { *directory, block_name(*directory) };
}

// The block device a filesystem lives on (Sysfs::filesystem_device), or
// why there is none: the filesystem's type.
std::optional<CheckedDevice> device_under_filesystem(const Sysfs& sysfs, dev_t file_device, std::string& why_not)
{
    if (const auto directory = sysfs.filesystem_device(file_device))
        return CheckedDevice { *directory, block_name(*directory) };
    const auto mount = sysfs.mount_of(file_device);
    why_not = mount ? mount->type : std::string("unknown");
    return std::nullopt;
}

void add_loop_facts(const Sysfs& sysfs, CheckedDevices& devices)
{
    const fs::path loop = devices.device->directory / "loop";
    std::error_code error;
    // A partition of a loop device: its disk has the loop directory.
    fs::path disk_loop = is_partition(devices.device->directory) ? devices.device->directory.parent_path() / "loop" : loop;
    if (!fs::is_directory(disk_loop, error))
        return;
    LoopFacts facts;
    facts.backing_file = Sysfs::read_line(disk_loop / "backing_file");
    facts.direct_io = Sysfs::read_line(disk_loop / "dio") == "1";
    // From the driver, not from the path (loop_identity.hpp).
    const fs::path disk = disk_loop.parent_path();
    facts.backing = loop_backing_identity(sysfs, block_name(disk), Sysfs::device_number(disk).value_or(0));
    if (facts.backing) {
        std::string why_not;
        devices.backing = device_under_filesystem(sysfs, facts.backing->device, why_not);
        facts.backing_filesystem = filesystem_type_of(sysfs, facts.backing->device);
    }
    devices.loop = facts;
}

} // namespace

std::string filesystem_type_of(const Sysfs& sysfs, dev_t file_device)
{
    const auto mount = sysfs.mount_of(file_device);
    return mount ? mount->type : std::string();
}

CheckedDevices checked_devices_of_block(const Sysfs& sysfs, dev_t device)
{
    CheckedDevices devices;
    devices.device = device_at(sysfs, device);
    if (!devices.device)
        devices.no_device_reason = "unknown";
    else
        add_loop_facts(sysfs, devices);
    return devices;
}

CheckedDevices checked_devices(const Sysfs& sysfs, int fd)
{
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return CheckedDevices { {}, {}, {}, "unknown" };
    if (S_ISBLK(st.st_mode))
        return checked_devices_of_block(sysfs, st.st_rdev);
    return checked_devices_of_filesystem(sysfs, st.st_dev);
}

CheckedDevices checked_devices_of_filesystem(const Sysfs& sysfs, dev_t file_device)
{
    CheckedDevices devices;
    devices.device = device_under_filesystem(sysfs, file_device, devices.no_device_reason);
    if (devices.device)
        add_loop_facts(sysfs, devices);
    return devices;
}

} // namespace diskbench::engine::storage
