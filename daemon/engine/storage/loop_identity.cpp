// SPDX-License-Identifier: GPL-3.0-or-later
#include "loop_identity.hpp"

#include "sysfs.hpp"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

namespace diskbench::engine::storage {

std::optional<FileIdentity> loop_backing_identity(int loop_fd)
{
    loop_info64 info {};
    if (::ioctl(loop_fd, LOOP_GET_STATUS64, &info) != 0)
        return std::nullopt; // ENXIO: no file attached; ENOTTY: no loop device
    // lo_device is huge_encode_dev(): the same encoding as st_dev.
    return FileIdentity { static_cast<dev_t>(info.lo_device), static_cast<ino_t>(info.lo_inode) };
}

std::optional<FileIdentity> loop_backing_identity(const Sysfs& sysfs, const std::string& name, dev_t device)
{
    if (sysfs.root() != "/")
        return std::nullopt;
    const UniqueFd node = open_block_node(name, device);
    return node.valid() ? loop_backing_identity(node.get()) : std::nullopt;
}

bool is_file(int fd, const FileIdentity& identity)
{
    struct stat st {};
    return ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == identity.device
        && st.st_ino == identity.inode;
}

UniqueFd open_block_node(const std::string& name, dev_t device)
{
    if (!plain_name(name))
        return {};
    UniqueFd node(::open(("/dev/" + name).c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY));
    struct stat st {};
    if (!node.valid() || ::fstat(node.get(), &st) != 0 || !S_ISBLK(st.st_mode) || st.st_rdev != device)
        return {};
    return node;
}

} // namespace diskbench::engine::storage
