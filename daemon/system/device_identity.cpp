// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_identity.hpp"

#include <linux/fs.h>
#include <sys/ioctl.h>

namespace diskbench::system {

std::string identity_change(const DeviceFacts& asked, const DeviceFacts& now)
{
    if (now.udisks_block != asked.udisks_block)
        return "its udisks object changed";
    if (now.device_number != asked.device_number)
        return "its device number changed";
    if (now.size != asked.size)
        return "its size changed";
    if (now.serial != asked.serial || now.wwn != asked.wwn)
        return "its serial number changed";
    if (now.queue.disk_sequence != asked.queue.disk_sequence)
        return "it is a new medium or attachment (disk sequence number)";
    return {};
}

std::optional<std::uint64_t> disk_sequence_of(int fd)
{
    std::uint64_t sequence = 0;
    if (::ioctl(fd, BLKGETDISKSEQ, &sequence) != 0)
        return std::nullopt;
    return sequence;
}

} // namespace diskbench::system
