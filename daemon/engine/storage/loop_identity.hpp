// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which file a loop device really reads. sysfs' loop/backing_file is only
// text: the kernel's d_path() of the file as seen from the reader's root,
// so a file in another mount namespace (a user's tmpfs over /etc, reached
// through /proc/PID/root) reads like a root-owned path of ours, and the
// owner of any directory on it can rename or swap what it names. The loop
// driver itself holds the file: LOOP_GET_STATUS64 gives its device and
// inode, which no user can forge. So the daemon takes the backing file's
// filesystem and disk from that identity, and opens the named file only
// when the file it opened is the one the driver holds.

#include "../base/unique_fd.hpp"

#include <sys/types.h>

#include <optional>
#include <string>

namespace diskbench::engine::storage {

class Sysfs;

struct FileIdentity {
    dev_t device = 0; // st_dev: the filesystem the file lies on
    ino_t inode = 0;  // st_ino
    bool operator==(const FileIdentity&) const = default;
};

// LOOP_GET_STATUS64 on an open loop device (or a partition of one):
// nullopt when it is no loop device or has no file attached. May block:
// the driver stats the file, which waits as long as the file's filesystem
// (a stalled FUSE or NFS mount) does. Never call it on the bus thread.
std::optional<FileIdentity> loop_backing_identity(int loop_fd);

// The same for loop device `device` named `name` by the kernel ("loop3"),
// opened through its node in /dev (devtmpfs: a name the kernel made, not
// one a user chose), for the ioctl only. nullopt also when `sysfs` reads a
// test tree: its devices are not this machine's.
std::optional<FileIdentity> loop_backing_identity(const Sysfs& sysfs, const std::string& name, dev_t device);

// Whether `fd` is the file `identity` names.
bool is_file(int fd, const FileIdentity& identity);

// Opens kernel device node /dev/NAME without reading from it (O_RDONLY |
// O_NONBLOCK, nothing followed): invalid unless it is block device
// `device`. For ioctls that only report.
UniqueFd open_block_node(const std::string& name, dev_t device);

} // namespace diskbench::engine::storage
