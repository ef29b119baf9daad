// SPDX-License-Identifier: GPL-3.0-or-later
#include "checked_device.hpp"

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

// The block device a filesystem lives on: its st_dev when that is a block
// device; else the mount's source when that is a block device node (btrfs
// and others hand out anonymous device numbers).
std::optional<CheckedDevice> device_under_filesystem(const Sysfs& sysfs, dev_t file_device, std::string& why_not)
{
    if (auto device = device_at(sysfs, file_device))
        return device;
    const auto mount = sysfs.mount_of(file_device);
    if (mount && mount->source.starts_with("/dev/")) {
        struct stat source {};
        if (::stat(mount->source.c_str(), &source) == 0 && S_ISBLK(source.st_mode))
            if (auto device = device_at(sysfs, source.st_rdev))
                return device;
    }
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
    struct stat backing {};
    // The kernel appends " (deleted)" to a file removed since.
    if (!facts.backing_file.empty() && ::stat(facts.backing_file.c_str(), &backing) == 0) {
        std::string why_not;
        devices.backing = device_under_filesystem(sysfs, backing.st_dev, why_not);
        facts.backing_filesystem = filesystem_type_of(sysfs, backing.st_dev);
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
