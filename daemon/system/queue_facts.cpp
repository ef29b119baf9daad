// SPDX-License-Identifier: GPL-3.0-or-later
#include "queue_facts.hpp"

#include "udev_handles.hpp"

#include "storage/link.hpp"
#include "storage/stack.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

namespace diskbench::system {

namespace {

std::string attribute(udev_device* device, const char* name)
{
    const char* value = udev_device_get_sysattr_value(device, name);
    std::string text = value ? value : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

std::uint32_t number(udev_device* device, const char* name, std::uint32_t fallback)
{
    const std::string text = attribute(device, name);
    if (text.empty())
        return fallback;
    return static_cast<std::uint32_t>(std::strtoul(text.c_str(), nullptr, 10));
}

bool has_holders(const std::filesystem::path& syspath)
{
    std::error_code error;
    const std::filesystem::path holders = syspath / "holders";
    return std::filesystem::exists(holders, error) && !std::filesystem::is_empty(holders, error);
}

// A disk is held when it or any of its partitions (subdirectories named
// after the disk, like sda/sda1) has holders.
bool disk_or_partitions_held(const std::filesystem::path& disk_syspath)
{
    if (has_holders(disk_syspath))
        return true;
    std::error_code error;
    const std::string name = disk_syspath.filename().string();
    for (const auto& entry : std::filesystem::directory_iterator(disk_syspath, error)) {
        const std::string child = entry.path().filename().string();
        if (child.size() > name.size() && child.starts_with(name) && has_holders(entry.path()))
            return true;
    }
    return false;
}

} // namespace

std::string active_scheduler(const std::string& sysfs_value)
{
    const auto open = sysfs_value.find('[');
    const auto close = sysfs_value.find(']', open);
    if (open != std::string::npos && close != std::string::npos)
        return sysfs_value.substr(open + 1, close - open - 1);
    return sysfs_value;
}

QueueFacts read_queue_facts(dev_t device_number)
{
    QueueFacts facts;
    UdevContext context(udev_new());
    if (!context)
        return facts;
    UdevDevice device(
        udev_device_new_from_devnum(context.get(), 'b', device_number));
    if (!device)
        return facts;

    udev_device* disk = device.get(); // borrowed from `device` when it is a partition
    const char* devtype = udev_device_get_devtype(device.get());
    const bool partition = devtype && std::strcmp(devtype, "partition") == 0;
    if (partition) {
        disk = udev_device_get_parent_with_subsystem_devtype(device.get(), "block", "disk");
        if (!disk)
            return facts;
    }
    facts.rotational = attribute(disk, "queue/rotational") == "1";
    facts.logical_block_size = number(disk, "queue/logical_block_size", 512);
    facts.physical_block_size = number(disk, "queue/physical_block_size", facts.logical_block_size);
    facts.scheduler = active_scheduler(attribute(disk, "queue/scheduler"));
    facts.max_sectors_kib = number(disk, "queue/max_sectors_kb", 0);
    facts.write_cache = attribute(disk, "queue/write_cache");
    facts.disk_sequence = std::strtoull(attribute(disk, "diskseq").c_str(), nullptr, 10);
    const char* syspath = udev_device_get_syspath(device.get());
    if (syspath)
        facts.has_holders = partition ? has_holders(syspath) : disk_or_partitions_held(syspath);
    return facts;
}

LayerFacts read_layer_facts(dev_t device_number)
{
    LayerFacts facts;
    const engine::storage::Sysfs sysfs;
    if (const auto directory = sysfs.block_directory(device_number)) {
        const engine::storage::Link link = engine::storage::find_link(*directory);
        facts.link = link.text;
        facts.link_limit_mb_s = link.limit_mb_s;
        facts.stack = engine::storage::device_stack(sysfs, *directory).layers;
    }
    return facts;
}

} // namespace diskbench::system
