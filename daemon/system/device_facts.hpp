// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nvme_health.hpp"

#include <sys/types.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::system {

// Kernel queue facts of a block device, from sysfs (for a partition: of the
// disk it belongs to).
struct QueueFacts {
    bool rotational = false;
    std::uint32_t logical_block_size = 512;
    std::uint32_t physical_block_size = 512;
    std::string scheduler;      // the active one, e.g. "mq-deadline"
    std::uint32_t max_sectors_kib = 0;
    std::string write_cache;    // "write back" / "write through" / ""
    bool has_holders = false;   // RAID, LVM or dm-crypt sits on it (or on one of its partitions)
    // The disk's sequence number (sysfs "diskseq", Linux 5.15+; 0 when
    // unknown). The kernel gives every new medium or attachment (a loop
    // device re-attached to another file) a new one, so it tells two disks
    // apart that had the same node one after the other.
    std::uint64_t disk_sequence = 0;
    bool operator==(const QueueFacts&) const = default;
};

// The link the disk hangs on ("PCIe 3.0 x4", "USB 2 (480 Mbps)", "virtual
// (loop)"; "" unknown), what it carries at most in MB/s (0: unknown or no
// limit), and the layers from this device down to the disk, top first
// ("dm-crypt", "nvme0n1p3", "nvme0n1"). From sysfs and, for a loop device,
// its driver (engine/storage/link.hpp, stack.hpp). Reading them can wait
// on a loop's backing file, so they are read on a probe thread
// (service/device_layers.hpp), never on the bus thread.
struct LayerFacts {
    std::string link;
    double link_limit_mb_s = 0;
    std::vector<std::string> stack;

    bool operator==(const LayerFacts&) const = default;
};

// What Device.Stack says of a device whose layers were not read in time.
inline constexpr const char* layers_not_answering = "unknown (did not answer)";

// Everything diskbenchd publishes about one block device.
// SMART attribute id -> raw count (smart_attributes.hpp).
using SmartCounts = std::map<std::uint8_t, std::int64_t>;

struct DeviceFacts {
    std::string node;        // "/dev/sda"
    std::string name;        // "sda"
    std::string kind;        // "disk", "partition", "loop"
    dev_t device_number = 0;
    std::uint64_t size = 0;
    std::string model, vendor, serial, wwn, revision, connection_bus;
    // The disk's name in /dev/disk/by-id ("ata-Samsung_SSD_860_S3Z1NB0K"):
    // the same after a reboot or on another port, for labels that must
    // last months (metrics). "" when udev gave it none (loop devices).
    std::string by_id;
    std::int32_t rotation_rate = -1; // rpm; 0 non-rotating; -1 unknown
    bool removable = false;
    bool mounted = false;
    bool swap_active = false;
    bool system_disk = false; // on a disk the running system is on (system_disks.hpp)
    std::string udisks_block;       // object path
    std::string parent_block;       // for a partition: its disk's udisks object path, else ""
    std::string udisks_drive = "/"; // object path or "/"
    // udisks' Drive.Ata SmartTemperature in Kelvin, 0 when unknown (no
    // SMART, not an ATA drive); udisks polls it and signals its changes.
    double smart_temperature_kelvin = 0;
    // The drive's SMART verdict: udisks' of an ATA drive (Drive.Ata, which
    // udisks keeps up to date itself), known only while SMART is supported
    // and on; else the daemon's own reading (drive_health.hpp): an NVMe
    // drive's health log (udisks 2.9 has no NVMe health interface;
    // Drive.NVMe came in 2.10), or the ATA SMART of a drive udisks made no
    // Drive.Ata for.
    struct SmartHealth {
        bool known = false;
        std::string source;                // "udisks-ata", "ata-smart" or "nvme"
        bool failing = false;              // SmartFailing: the drive predicts its failure
        std::int64_t bad_sectors = 0;      // SmartNumBadSectors: reallocated and pending
        std::uint64_t power_on_seconds = 0;
        std::int32_t attributes_failing = 0; // SmartNumAttributesFailing
        // The failure-telling attributes' raw counts by id, those the drive
        // reports (smart_attributes.hpp); empty until udisks answered.
        SmartCounts counts;
        // The temperature of the daemon's own ATA reading (0: none);
        // udisks' is smart_temperature_kelvin.
        double temperature_celsius = 0;
        std::optional<NvmeHealth> nvme;    // source "nvme"
        bool operator==(const SmartHealth&) const = default;
    } smart;
    QueueFacts queue;
    LayerFacts layers;

    [[nodiscard]] bool in_use() const noexcept { return mounted || swap_active || queue.has_holders; }
    bool operator==(const DeviceFacts&) const = default;
};

} // namespace diskbench::system
