// SPDX-License-Identifier: GPL-3.0-or-later
#include "udisks_inventory.hpp"

#include <algorithm>
#include <string_view>
#include <tuple>

#include <set>

namespace diskbench::system {

namespace {

constexpr const char* block_interface = "org.freedesktop.UDisks2.Block";
constexpr const char* drive_interface = "org.freedesktop.UDisks2.Drive";
constexpr const char* ata_interface = "org.freedesktop.UDisks2.Drive.Ata";
constexpr const char* partition_interface = "org.freedesktop.UDisks2.Partition";
constexpr const char* filesystem_interface = "org.freedesktop.UDisks2.Filesystem";
constexpr const char* swap_interface = "org.freedesktop.UDisks2.Swapspace";
constexpr const char* loop_interface = "org.freedesktop.UDisks2.Loop";

// A property of the expected type, or `fallback` when it is missing or of
// another type (udisks versions differ; a wrong type must not throw).
template <typename T>
T property(const ObjectInterfaces& object, const char* interface, const char* name, T fallback = T {})
{
    const auto found_interface = object.find(interface);
    if (found_interface == object.end())
        return fallback;
    const auto found = found_interface->second.find(name);
    if (found == found_interface->second.end() || !found->second.template containsValueOfType<T>())
        return fallback;
    return found->second.template get<T>();
}

// udisks sends paths as NUL-terminated byte strings (ay).
std::string bytestring(const std::vector<std::uint8_t>& bytes)
{
    std::string text(bytes.begin(), bytes.end());
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

bool has_mount_points(const ObjectInterfaces& object)
{
    return !property<std::vector<std::vector<std::uint8_t>>>(object, filesystem_interface, "MountPoints").empty();
}

// A node the daemon may publish and open: valid UTF-8 (sd-bus refuses to
// send anything else as a string, and one such device would make every
// later device update fail) without control characters. Real nodes are
// plain ASCII ("/dev/nvme0n1p2", "/dev/dm-3").
bool plain_node(const std::string& node)
{
    for (const char c : node) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte >= 0x7f)
            return false;
    }
    return true;
}

// Of the block device's udev links, the by-id name a person would pick:
// the bus's own (ata-, nvme-, scsi-, usb-, mmc-...) before wwn- and the
// others, which not every bus has; the shortest then, and by name, so
// the same disk gives the same name every time.
std::string stable_id(const std::vector<std::vector<std::uint8_t>>& symlinks)
{
    static constexpr std::string_view by_id = "/dev/disk/by-id/";
    std::vector<std::string> names;
    for (const auto& link : symlinks) {
        const std::string path = bytestring(link);
        if (path.starts_with(by_id) && path.size() > by_id.size() && plain_node(path))
            names.push_back(path.substr(by_id.size()));
    }
    const auto rank = [](const std::string& name) {
        return std::tuple(name.starts_with("wwn-") || name.starts_with("nvme-eui.") ? 1 : 0, name.size(), name);
    };
    std::sort(names.begin(), names.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
    return names.empty() ? std::string() : names.front();
}

bool excluded_name(const std::string& name)
{
    return name.empty() || name.starts_with("ram") || name.starts_with("zram");
}

} // namespace

std::vector<DeviceFacts> devices_from_udisks(const ManagedObjects& objects,
                                             const std::function<QueueFacts(dev_t)>& queue_facts,
                                             const SmartCountsByDrive& smart_counts)
{
    // Partition tables whose partitions have something mounted or swapped on.
    std::set<std::string> tables_with_mounts;
    std::set<std::string> tables_with_swap;
    for (const auto& [path, object] : objects) {
        const std::string table = property<sdbus::ObjectPath>(object, partition_interface, "Table");
        if (table.empty() || table == "/")
            continue;
        if (has_mount_points(object))
            tables_with_mounts.insert(table);
        if (property<bool>(object, swap_interface, "Active"))
            tables_with_swap.insert(table);
    }

    std::vector<DeviceFacts> devices;
    for (const auto& [path, object] : objects) {
        if (object.find(block_interface) == object.end())
            continue;
        DeviceFacts facts;
        facts.node = bytestring(property<std::vector<std::uint8_t>>(object, block_interface, "Device"));
        facts.name = facts.node.substr(facts.node.find_last_of('/') + 1);
        facts.size = property<std::uint64_t>(object, block_interface, "Size");
        if (!facts.node.starts_with("/dev/") || !plain_node(facts.node) || excluded_name(facts.name) || facts.size == 0)
            continue;
        facts.device_number = static_cast<dev_t>(property<std::uint64_t>(object, block_interface, "DeviceNumber"));
        // No block device has number 0:0 (a regular file's st_rdev is 0).
        if (facts.device_number == 0)
            continue;
        if (object.count(partition_interface)) {
            facts.kind = "partition";
            facts.parent_block = property<sdbus::ObjectPath>(object, partition_interface, "Table");
        } else if (object.count(loop_interface) || facts.name.starts_with("loop")) {
            facts.kind = "loop";
        } else {
            facts.kind = "disk";
        }
        facts.udisks_block = path;
        facts.by_id = stable_id(property<std::vector<std::vector<std::uint8_t>>>(object, block_interface, "Symlinks"));
        facts.mounted = has_mount_points(object) || tables_with_mounts.count(path) > 0;
        facts.swap_active = property<bool>(object, swap_interface, "Active") || tables_with_swap.count(path) > 0;

        const std::string drive_path = property<sdbus::ObjectPath>(object, block_interface, "Drive");
        const auto drive = objects.find(sdbus::ObjectPath(drive_path));
        if (!drive_path.empty() && drive_path != "/" && drive != objects.end()) {
            const ObjectInterfaces& d = drive->second;
            facts.udisks_drive = drive_path;
            facts.model = property<std::string>(d, drive_interface, "Model");
            facts.vendor = property<std::string>(d, drive_interface, "Vendor");
            facts.serial = property<std::string>(d, drive_interface, "Serial");
            facts.wwn = property<std::string>(d, drive_interface, "WWN");
            facts.revision = property<std::string>(d, drive_interface, "Revision");
            facts.connection_bus = property<std::string>(d, drive_interface, "ConnectionBus");
            facts.rotation_rate = property<std::int32_t>(d, drive_interface, "RotationRate", -1);
            facts.removable = property<bool>(d, drive_interface, "Removable")
                || property<bool>(d, drive_interface, "MediaRemovable");
            // SmartTemperature means something only while SMART is on.
            if (property<bool>(d, ata_interface, "SmartEnabled")) {
                facts.smart_temperature_kelvin = property<double>(d, ata_interface, "SmartTemperature");
                if (property<bool>(d, ata_interface, "SmartSupported")) {
                    facts.smart.known = true;
                    facts.smart.source = "udisks-ata";
                    facts.smart.failing = property<bool>(d, ata_interface, "SmartFailing");
                    facts.smart.bad_sectors = property<std::int64_t>(d, ata_interface, "SmartNumBadSectors");
                    facts.smart.power_on_seconds = property<std::uint64_t>(d, ata_interface, "SmartPowerOnSeconds");
                    facts.smart.attributes_failing
                        = property<std::int32_t>(d, ata_interface, "SmartNumAttributesFailing");
                    if (const auto counts = smart_counts.find(drive_path); counts != smart_counts.end())
                        facts.smart.counts = counts->second;
                }
            }
        }
        if (queue_facts)
            facts.queue = queue_facts(facts.device_number);
        devices.push_back(std::move(facts));
    }
    return devices;
}

} // namespace diskbench::system
