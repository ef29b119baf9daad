// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which disks the running system lives on. A raw write test is never run on
// them, not even on a partition nothing has mounted (a spare partition, an
// ESP that systemd mounts only on access): "unused" is not enough when the
// disk under / is one bad write away from an unbootable machine.

#include <sys/types.h>

#include <set>
#include <string>
#include <vector>

namespace diskbench::system {

// Where to look; tests point these at their own mounts.
struct SystemPlaces {
    std::string mountinfo = "/proc/self/mountinfo";
    std::string swaps = "/proc/swaps";
    // The mount points whose filesystems the system needs to run or boot.
    std::vector<std::string> mount_points = { "/", "/usr", "/var", "/boot", "/boot/efi", "/efi" };
};

// The whole disks below block device `device`: itself for a disk, its disk
// for a partition, and for a device-mapper or md device the disks of
// everything it is built on (sysfs "slaves", followed down). Empty when
// sysfs does not know the device.
std::set<dev_t> disks_under(dev_t device);

// The whole disks under the filesystems mounted at `places.mount_points`
// and under active swap (a swap partition, or the filesystem of a swap
// file).
std::set<dev_t> system_disks(const SystemPlaces& places = {});

// Whether `device`, or anything it is built on, is on one of `disks`.
bool on_any_of(dev_t device, const std::set<dev_t>& disks);

// One mount point from /proc/self/mountinfo, with its "\040"-style
// escapes undone ("/media/my\040disk" -> "/media/my disk").
std::string unescape_mount_field(const std::string& field);

} // namespace diskbench::system
