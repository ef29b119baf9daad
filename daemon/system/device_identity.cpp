// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_identity.hpp"


#include <linux/fs.h>
#include <sys/ioctl.h>

namespace diskbench::system {

std::optional<contract::Message> identity_change(const DeviceFacts& asked, const DeviceFacts& now)
{
    const auto said = [](const char* id) { return contract::Message { id }; };
    if (now.udisks_block != asked.udisks_block)
        return said("error-reason-udisks-object");
    if (now.device_number != asked.device_number)
        return said("error-reason-device-number");
    if (now.size != asked.size)
        return said("error-reason-size");
    if (now.serial != asked.serial || now.wwn != asked.wwn)
        return said("error-reason-serial");
    if (now.queue.disk_sequence != asked.queue.disk_sequence)
        return said("error-reason-new-medium");
    return std::nullopt;
}

std::optional<std::uint64_t> disk_sequence_of(int fd)
{
    std::uint64_t sequence = 0;
    if (::ioctl(fd, BLKGETDISKSEQ, &sequence) != 0)
        return std::nullopt;
    return sequence;
}

} // namespace diskbench::system
