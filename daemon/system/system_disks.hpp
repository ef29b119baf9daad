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
    // Where btrfs lists each volume's member devices (fs/btrfs/UUID/devices).
    std::string sysfs = "/sys";
};

// The whole disks below block device `device`: itself for a disk, its disk
// for a partition, and for a device-mapper or md device the disks of
// everything it is built on (sysfs "slaves", followed down). Empty when
// sysfs does not know the device.
std::set<dev_t> disks_under(dev_t device);

// The whole disks the running system is on, and what could not be told.
struct SystemDisks {
    std::set<dev_t> disks;
    // Why some of them could not be found, naming the mount ("/ is zfs
    // (rpool/ROOT/debian), whose disks sysfs does not name"); "" when all
    // were. Raw writes then fail closed: none runs anywhere.
    std::string unknown;

    // Whether `device` may be on a system disk: on one of `disks`, or
    // anywhere while some are unknown.
    [[nodiscard]] bool may_hold(dev_t device) const;
};

// The whole disks under the filesystems mounted at `places.mount_points`
// (for btrfs and bcachefs every member device of the volume, not only the
// one mountinfo names) and under active swap (a swap partition, or the
// filesystem of a swap file). `sysfs` is where btrfs volumes list their
// members; tests point it at a tree of their own.
SystemDisks system_disks(const SystemPlaces& places = {});

// Whether `device`, or anything it is built on, is on one of `disks`.
bool on_any_of(dev_t device, const std::set<dev_t>& disks);

// One mount point from /proc/self/mountinfo, with its "\040"-style
// escapes undone ("/media/my\040disk" -> "/media/my disk").
std::string unescape_mount_field(const std::string& field);

} // namespace diskbench::system
