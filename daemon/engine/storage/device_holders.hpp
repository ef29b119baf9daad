// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Who else has a block device open. A raw write opens its device with
// O_EXCL and takes its BSD lock, but neither stops a program that opens it
// plainly: a virtual machine's QEMU on a raw disk (which locks with fcntl,
// not flock), dd, a userspace storage daemon. Preserve mode reads a
// stretch and writes the same bytes back; whatever such a program wrote
// in between would be put back to what it was. So a raw write first looks
// for them, in the two places the kernel tells: every process's open
// files (/proc/PID/fd) and the file locks (/proc/locks).

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::engine::storage {

struct DeviceHolder {
    pid_t pid = -1;      // -1: an open file description lock (/proc/locks gives no pid for it)
    std::string command; // /proc/PID/comm, printable ASCII only; "" when unknown
};

// The processes other than this one that hold the block device open
// through `device_fd` names (its device number), or a lock on its node
// (that inode). `proc` is "/proc" but for tests. Processes whose files
// this process may not see (the hardened unit has no CAP_SYS_PTRACE, and
// ProtectProc=invisible hides them) are found only by their locks; the
// block layer's counters during the run catch the rest (BlockWriteWatch).
// Reads only what the kernel keeps in memory: a file's type and device
// number are asked with AT_STATX_DONT_SYNC, so a file on a stalled FUSE or
// NFS mount among a process's files does not block the scan.
std::vector<DeviceHolder> other_holders(int device_fd, const std::filesystem::path& proc = "/proc");

// The holders of one /proc/locks text whose lock is on the inode
// (`lock_device`, `inode`), other than `self`: for other_holders and tests.
std::vector<DeviceHolder> lock_holders(std::string_view locks, dev_t lock_device, ino_t inode, pid_t self);

// "qemu-system-x86 (pid 4242), dd (pid 17)": for the failure that names them.
std::string holders_text(const std::vector<DeviceHolder>& holders);

} // namespace diskbench::engine::storage
