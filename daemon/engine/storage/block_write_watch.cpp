// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_write_watch.hpp"

#include <sys/stat.h>

namespace diskbench::engine::storage {

BlockWriteWatch::BlockWriteWatch(int device_fd, Sysfs sysfs) : sysfs_(std::move(sysfs))
{
    struct stat facts {};
    if (::fstat(device_fd, &facts) != 0 || !S_ISBLK(facts.st_mode))
        return;
    directory_ = sysfs_.block_directory(facts.st_rdev);
    if (!directory_)
        return;
    const std::optional<BlockCounters> now = sysfs_.counters(*directory_);
    if (!now) {
        directory_.reset();
        return;
    }
    last_written_ = now->write_bytes;
}

std::uint64_t BlockWriteWatch::foreign_since_last(std::uint64_t own)
{
    if (!directory_)
        return 0;
    const std::optional<BlockCounters> now = sysfs_.counters(*directory_);
    if (!now) {
        // The device's counters went away (it was removed; its I/O fails
        // now anyway): what the run wrote meanwhile is not known, so no
        // later figure could be told apart from ours. Not watched any more.
        directory_.reset();
        return 0;
    }
    const std::uint64_t written = now->write_bytes >= last_written_ ? now->write_bytes - last_written_ : 0;
    last_written_ = now->write_bytes;
    return written > own ? written - own : 0;
}

} // namespace diskbench::engine::storage
