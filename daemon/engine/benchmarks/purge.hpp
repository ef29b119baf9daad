// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The steady-state test's purge (SNIA PTS: put the drive back in its
// fresh-out-of-box state before preconditioning): telling the device that
// the range holds nothing, so an SSD's flash translation layer can erase
// those blocks in the background. A block device is sent BLKDISCARD when
// its queue says it takes discards; a file (the tests' targets, and what a
// loop device's discard becomes) gets FALLOC_FL_PUNCH_HOLE.

#include "../io/target.hpp"

#include <cstdint>
#include <string>

namespace diskbench::engine::benchmarks {

// What the device says about discard: its queue's discard_max_bytes (0:
// it takes none) and discard_granularity. For a file, what a hole punch
// can free: the whole file, in units of the filesystem's block.
struct DiscardFacts {
    bool known = false; // false: the kernel's queue facts could not be read
    std::uint64_t max_bytes = 0;
    std::uint64_t granularity = 0;
    [[nodiscard]] bool supported() const noexcept { return max_bytes > 0; }
};

DiscardFacts discard_facts(const Target& target);

struct PurgeOutcome {
    bool purged = false;
    std::string method = "none"; // "discard", "punch-hole" or "none"
    double seconds = 0;
    // Why nothing was purged: 0 when purged or unsupported by the device's
    // facts, else the errno of a discard the kernel refused as unsupported
    // (EOPNOTSUPP: a loop device over a filesystem that cannot punch holes).
    int refused_errno = 0;
};

// Discards [0, length) of the target when it supports that. Throws
// IoError for a failure that is not "unsupported" (the device went away).
PurgeOutcome purge(const Target& target, const DiscardFacts& facts, std::uint64_t length);

} // namespace diskbench::engine::benchmarks
