// SPDX-License-Identifier: GPL-3.0-or-later
#include "filesystem_facts.hpp"

#include "../base/errors.hpp"

#include <linux/magic.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace diskbench::engine {

namespace {

struct KnownType {
    std::uint64_t magic;
    const char* name;
    bool pseudo;
};

// Magic numbers from <linux/magic.h>; the few it lacks are spelt out.
constexpr KnownType known_types[] = {
    { EXT4_SUPER_MAGIC, "ext2/ext3/ext4", false },
    { XFS_SUPER_MAGIC, "xfs", false },
    { BTRFS_SUPER_MAGIC, "btrfs", false },
    { F2FS_SUPER_MAGIC, "f2fs", false },
    { TMPFS_MAGIC, "tmpfs", false },
    { MSDOS_SUPER_MAGIC, "vfat", false },
    { 0x2011BAB0, "exfat", false },
    { 0x7366746e, "ntfs3", false },
    { 0x5346544e, "ntfs", false },
    { 0x2fc12fc1, "zfs", false },
    { NFS_SUPER_MAGIC, "nfs", false },
    { 0xFE534D42, "smb2", false },
    { 0xFF534D42, "cifs", false },
    { 0x65735546, "fuse", false },
    { OVERLAYFS_SUPER_MAGIC, "overlay", false },
    { SQUASHFS_MAGIC, "squashfs", false },
    { 0x9123683E, "bcachefs", false },
    { PROC_SUPER_MAGIC, "proc", true },
    { SYSFS_MAGIC, "sysfs", true },
    { CGROUP_SUPER_MAGIC, "cgroup", true },
    { CGROUP2_SUPER_MAGIC, "cgroup2", true },
    { DEBUGFS_MAGIC, "debugfs", true },
    { TRACEFS_MAGIC, "tracefs", true },
    { SECURITYFS_MAGIC, "securityfs", true },
    { EFIVARFS_MAGIC, "efivarfs", true },
    { BPF_FS_MAGIC, "bpf", true },
    { DEVPTS_SUPER_MAGIC, "devpts", true },
    { 0x62656570, "configfs", true },
    { PSTOREFS_MAGIC, "pstore", true },
    { 0x65735543, "fusectl", true },
    { SELINUX_MAGIC, "selinuxfs", true },
    { SMACK_MAGIC, "smackfs", true },
    { NSFS_MAGIC, "nsfs", true },
};

} // namespace

FilesystemFacts filesystem_facts(int fd)
{
    struct statfs fs {};
    struct statvfs vfs {};
    if (::fstatfs(fd, &fs) != 0 || ::fstatvfs(fd, &vfs) != 0)
        throw IoError(Failure { "error-filesystem-facts", { { "reason", std::strerror(errno) } } }, errno);

    FilesystemFacts facts;
    const auto magic = static_cast<std::uint64_t>(static_cast<std::uint32_t>(fs.f_type));
    facts.type = fmt::format("{:#x}", magic);
    for (const auto& known : known_types)
        if (known.magic == magic) {
            facts.type = known.name;
            facts.pseudo = known.pseudo;
        }
    facts.total_bytes = static_cast<std::uint64_t>(vfs.f_blocks) * vfs.f_frsize;
    facts.available_bytes = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
    facts.block_size = static_cast<std::uint32_t>(vfs.f_bsize);
    facts.total_inodes = vfs.f_files;
    facts.available_inodes = vfs.f_favail;
    return facts;
}

std::uint64_t usable_space(const FilesystemFacts& facts) noexcept
{
    return facts.available_bytes - facts.available_bytes / 10;
}

} // namespace diskbench::engine
