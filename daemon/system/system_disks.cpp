// SPDX-License-Identifier: GPL-3.0-or-later
#include "system_disks.hpp"

#include "udev_handles.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

namespace diskbench::system {

namespace {

// dm and md devices name what they are built on in sysfs "slaves"; a
// stack (dm-crypt on LVM on md on partitions) is at most a few levels deep,
// and the limit keeps a cycle sysfs should never show from looping.
constexpr int max_stack_depth = 16;

void collect_disks(udev* context, udev_device* device, std::set<dev_t>& disks, int depth)
{
    if (depth > max_stack_depth)
        return;
    const char* syspath = udev_device_get_syspath(device);
    std::error_code error;
    bool built_on_others = false;
    if (syspath) {
        // With error codes throughout: a device can vanish mid-walk.
        std::filesystem::directory_iterator entry(std::filesystem::path(syspath) / "slaves", error);
        for (; !error && entry != std::filesystem::directory_iterator(); entry.increment(error)) {
            UdevDevice slave(udev_device_new_from_subsystem_sysname(context, "block",
                                                                    entry->path().filename().c_str()));
            if (!slave)
                continue;
            built_on_others = true;
            collect_disks(context, slave.get(), disks, depth + 1);
        }
    }
    if (built_on_others)
        return;
    const char* type = udev_device_get_devtype(device);
    if (type && std::string_view(type) == "partition") {
        // Borrowed from `device`, not to be unreferenced.
        udev_device* disk = udev_device_get_parent_with_subsystem_devtype(device, "block", "disk");
        if (disk) {
            collect_disks(context, disk, disks, depth + 1);
            return;
        }
    }
    disks.insert(udev_device_get_devnum(device));
}

// The block device a mounted filesystem is on: the mountinfo's major:minor,
// or for filesystems that report an anonymous device there (btrfs, 0:NN)
// the /dev node named as the source.
dev_t mounted_device(unsigned major_number, unsigned minor_number, const std::string& source)
{
    if (major_number != 0)
        return makedev(major_number, minor_number);
    struct stat st {};
    if (source.starts_with("/dev/") && ::stat(source.c_str(), &st) == 0 && S_ISBLK(st.st_mode))
        return st.st_rdev;
    return 0;
}

std::vector<dev_t> devices_mounted_at(const SystemPlaces& places)
{
    std::vector<dev_t> devices;
    std::ifstream mountinfo(places.mountinfo);
    std::string line;
    while (std::getline(mountinfo, line)) {
        // "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw"
        std::istringstream fields(line);
        std::string id, parent, numbers, root, mount_point;
        if (!(fields >> id >> parent >> numbers >> root >> mount_point))
            continue;
        const auto point = std::find(places.mount_points.begin(), places.mount_points.end(),
                                     unescape_mount_field(mount_point));
        if (point == places.mount_points.end())
            continue;
        const auto separator = line.find(" - ");
        std::string type, source;
        if (separator != std::string::npos)
            std::istringstream(line.substr(separator + 3)) >> type >> source;
        unsigned major_number = 0, minor_number = 0;
        if (std::sscanf(numbers.c_str(), "%u:%u", &major_number, &minor_number) != 2)
            continue;
        if (const dev_t device = mounted_device(major_number, minor_number, unescape_mount_field(source)))
            devices.push_back(device);
    }
    return devices;
}

std::vector<dev_t> swap_devices(const std::string& swaps_path)
{
    std::vector<dev_t> devices;
    std::ifstream swaps(swaps_path);
    std::string line;
    std::getline(swaps, line); // "Filename Type Size Used Priority"
    while (std::getline(swaps, line)) {
        std::string name;
        if (!(std::istringstream(line) >> name))
            continue;
        struct stat st {};
        if (::stat(unescape_mount_field(name).c_str(), &st) != 0)
            continue;
        devices.push_back(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev); // a swap file: its filesystem's
    }
    return devices;
}

} // namespace

std::string unescape_mount_field(const std::string& field)
{
    const auto octal = [](char c) { return c >= '0' && c <= '7'; };
    std::string text;
    for (std::size_t i = 0; i < field.size(); ++i) {
        if (field[i] == '\\' && i + 3 < field.size() && octal(field[i + 1]) && octal(field[i + 2])
            && octal(field[i + 3])) {
            text.push_back(static_cast<char>(((field[i + 1] - '0') << 6) | ((field[i + 2] - '0') << 3)
                                             | (field[i + 3] - '0')));
            i += 3;
        } else {
            text.push_back(field[i]);
        }
    }
    return text;
}

std::set<dev_t> disks_under(dev_t device)
{
    std::set<dev_t> disks;
    UdevContext context(udev_new());
    if (!context || device == 0)
        return disks;
    UdevDevice block(udev_device_new_from_devnum(context.get(), 'b', device));
    if (block)
        collect_disks(context.get(), block.get(), disks, 0);
    return disks;
}

std::set<dev_t> system_disks(const SystemPlaces& places)
{
    std::set<dev_t> disks;
    std::vector<dev_t> devices = devices_mounted_at(places);
    const std::vector<dev_t> swaps = swap_devices(places.swaps);
    devices.insert(devices.end(), swaps.begin(), swaps.end());
    for (const dev_t device : devices)
        disks.merge(disks_under(device));
    return disks;
}

bool on_any_of(dev_t device, const std::set<dev_t>& disks)
{
    const std::set<dev_t> below = disks_under(device);
    return std::any_of(below.begin(), below.end(), [&](dev_t disk) { return disks.count(disk) > 0; });
}

} // namespace diskbench::system
