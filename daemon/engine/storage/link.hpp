// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The link a disk hangs on, from sysfs: PCIe generation and width of an
// NVMe drive's PCI function (current and maximum, and the port's maximum),
// the SATA link speed (ata_link), the USB speed of the USB device above the
// disk, or virtual (loop, virtio, zram, device mapper without a disk...).

#include "sysfs.hpp"

#include <filesystem>
#include <string>

namespace diskbench::engine::storage {

enum class LinkKind { Unknown, Pcie, Sata, Usb, Virtual };

struct Link {
    LinkKind kind = LinkKind::Unknown;
    std::string text;          // "PCIe 3.0 x4", "SATA 6.0 Gbps", "USB 2.0 (480 Mbps)", "virtual (loop)"
    double limit_mb_s = 0;     // what the link can carry at most, 10^6 bytes/s after encoding; 0: no limit known
    // Set when the link runs below what both its ends support, e.g.
    // "PCIe 3.0 x4 of 4.0 x4" (a PCIe 4 SSD in a PCIe 3 slot, a lane short).
    std::string degraded;
};

// `block_directory`: the device's (a partition's disk is used; a device
// mapper or md device's first slave, down to a disk).
Link find_link(const std::filesystem::path& block_directory);

// The disk at the bottom of the slaves chain (a partition's disk, a
// dm-crypt or md device's first slave's disk, ...); the directory itself
// when nothing is under it. At most 16 layers, so a loop in a test tree ends.
std::filesystem::path bottom_disk(const std::filesystem::path& block_directory);
// queue/rotational of that disk.
bool rotational(const std::filesystem::path& block_directory);

// For a PCIe speed like "8.0 GT/s PCIe": its generation ("3.0") and usable
// MB/s per lane; empty / 0 when unknown.
std::string pcie_generation(const std::string& speed);
double pcie_lane_mb_s(const std::string& speed);

} // namespace diskbench::engine::storage
