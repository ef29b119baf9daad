// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Preserve mode's guard against a writer it cannot see: the block layer's
// count of bytes written to the device, against what the run wrote itself.
// Nothing in the kernel keeps another program from opening the device
// plainly after the run started (or one that other_holders() may not see),
// and each batch reads a stretch and writes the same bytes back: what the
// other program wrote in between would be undone. Counted at the device
// itself (its sysfs stat, a partition's own), so nothing else's I/O mixes
// in: flushes have counters of their own, and a RAID's or dm's writes to
// its members are the members' count.

#include "sysfs.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>

namespace diskbench::engine::storage {

class BlockWriteWatch {
public:
    // Watches the block device behind `device_fd`; a regular file (tests,
    // diskbench-engine) or a device without counters is not watched.
    explicit BlockWriteWatch(int device_fd, Sysfs sysfs = Sysfs());

    [[nodiscard]] bool watching() const noexcept { return directory_.has_value(); }

    // The bytes written to the device since the last call (or since the
    // watch was made) beyond `own`, what the run wrote itself meanwhile; 0
    // when not watching.
    std::uint64_t foreign_since_last(std::uint64_t own);

private:
    Sysfs sysfs_;
    std::optional<std::filesystem::path> directory_;
    std::uint64_t last_written_ = 0;
};

} // namespace diskbench::engine::storage
