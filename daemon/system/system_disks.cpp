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

// Filesystems whose mountinfo shows an anonymous device (0:NN) because no
// disk holds them: nothing of the system's disks to find there.
bool memory_only(const std::string& type)
{
    return type == "tmpfs" || type == "ramfs" || type == "rootfs" || type == "devtmpfs" || type == "overlay";
}

dev_t block_node(const std::string& path)
{
    struct stat st {};
    if (path.starts_with("/dev/") && ::stat(path.c_str(), &st) == 0 && S_ISBLK(st.st_mode))
        return st.st_rdev;
    return 0;
}

// Every member of the btrfs volume that `member` belongs to:
// fs/btrfs/UUID/devices/ holds one link per member, named by its kernel name.
std::vector<dev_t> btrfs_members(const std::string& sysfs, dev_t member)
{
    std::vector<dev_t> members;
    UdevContext context(udev_new());
    UdevDevice device(context ? udev_device_new_from_devnum(context.get(), 'b', member) : nullptr);
    const char* name = device ? udev_device_get_sysname(device.get()) : nullptr;
    if (!name)
        return members;
    std::error_code error;
    std::filesystem::directory_iterator volume(std::filesystem::path(sysfs) / "fs/btrfs", error);
    for (; !error && volume != std::filesystem::directory_iterator(); volume.increment(error)) {
        const auto devices = volume->path() / "devices";
        if (!std::filesystem::exists(devices / name, error))
            continue;
        std::error_code inner;
        std::filesystem::directory_iterator entry(devices, inner);
        for (; !inner && entry != std::filesystem::directory_iterator(); entry.increment(inner)) {
            UdevDevice other(udev_device_new_from_subsystem_sysname(context.get(), "block",
                                                                    entry->path().filename().c_str()));
            if (other)
                members.push_back(udev_device_get_devnum(other.get()));
        }
    }
    return members;
}

struct MountedDevices {
    std::vector<dev_t> devices;
    std::string unknown;
};

// The block devices a mounted filesystem is on: the mountinfo's
// major:minor, or for filesystems that report an anonymous device there
// the /dev nodes named as the source (btrfs names one member, bcachefs
// all of them, joined by ':'), and every member of a btrfs volume. What
// cannot be told (zfs names a dataset; a network root names a server) goes
// to `unknown`.
void add_mounted_devices(MountedDevices& out, const SystemPlaces& places, const std::string& mount_point,
                         unsigned major_number, unsigned minor_number, const std::string& type,
                         const std::string& source)
{
    std::vector<dev_t> found;
    if (major_number != 0) {
        found.push_back(makedev(major_number, minor_number));
    } else {
        std::istringstream sources(source);
        std::string node;
        while (std::getline(sources, node, ':'))
            if (const dev_t device = block_node(node))
                found.push_back(device);
    }
    if (type == "btrfs") {
        std::vector<dev_t> members;
        for (const dev_t device : found)
            for (const dev_t member : btrfs_members(places.sysfs, device))
                members.push_back(member);
        found.insert(found.end(), members.begin(), members.end());
    }
    if (found.empty() && !memory_only(type)) {
        if (!out.unknown.empty())
            out.unknown += "; ";
        out.unknown += mount_point + " is " + type + " (" + source + "), whose disks sysfs does not name";
    }
    out.devices.insert(out.devices.end(), found.begin(), found.end());
}

MountedDevices devices_mounted_at(const SystemPlaces& places)
{
    MountedDevices mounted;
    std::ifstream mountinfo(places.mountinfo);
    std::string line;
    while (std::getline(mountinfo, line)) {
        // "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw"
        std::istringstream fields(line);
        std::string id, parent, numbers, root, mount_point;
        if (!(fields >> id >> parent >> numbers >> root >> mount_point))
            continue;
        const std::string point = unescape_mount_field(mount_point);
        if (std::find(places.mount_points.begin(), places.mount_points.end(), point) == places.mount_points.end())
            continue;
        const auto separator = line.find(" - ");
        std::string type, source;
        if (separator != std::string::npos)
            std::istringstream(line.substr(separator + 3)) >> type >> source;
        unsigned major_number = 0, minor_number = 0;
        if (std::sscanf(numbers.c_str(), "%u:%u", &major_number, &minor_number) != 2)
            continue;
        add_mounted_devices(mounted, places, point, major_number, minor_number, type, unescape_mount_field(source));
    }
    return mounted;
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

SystemDisks system_disks(const SystemPlaces& places)
{
    SystemDisks result;
    MountedDevices mounted = devices_mounted_at(places);
    std::vector<dev_t>& devices = mounted.devices;
    const std::vector<dev_t> swaps = swap_devices(places.swaps);
    devices.insert(devices.end(), swaps.begin(), swaps.end());
    for (const dev_t device : devices)
        result.disks.merge(disks_under(device));
    result.unknown = std::move(mounted.unknown);
    return result;
}

bool SystemDisks::may_hold(dev_t device) const
{
    return !unknown.empty() || on_any_of(device, disks);
}

bool on_any_of(dev_t device, const std::set<dev_t>& disks)
{
    const std::set<dev_t> below = disks_under(device);
    return std::any_of(below.begin(), below.end(), [&](dev_t disk) { return disks.count(disk) > 0; });
}

} // namespace diskbench::system
