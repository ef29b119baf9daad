// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

// What a surface scan found wrong (the daemon's "surface" kind since API
// 0.9): the bad ranges and slow spots of its result, read from its series
// ("bad", "bad_errno", "slow", "slow_again") and summary, and said in words
// the same way by the app (its map's summary line and details) and
// diskbenchctl (run surface, show).
namespace diskbench::client {

struct BadRangeEntry {
    std::uint64_t offset = 0, length = 0; // bytes
    int error = 0;                        // errno
};

struct SlowSpotEntry {
    std::uint64_t offset = 0;
    double ms = 0;
    std::optional<double> again_ms; // the re-read; none when not re-read
    bool repeatable = false;        // slow again when re-read: a weak sector
};

struct SurfaceFaults {
    std::vector<BadRangeEntry> bad;   // as kept (the result keeps at most 10,000)
    std::vector<SlowSpotEntry> slow;
    std::uint64_t bad_ranges = 0;     // all of them, kept or not
    std::uint64_t bad_bytes = 0;
    std::uint64_t slow_blocks = 0;
    std::uint64_t slow_repeatable = 0;
    double threshold_ms = 0;
    std::uint32_t logical_block = 512;
    std::string stopped_reason; // "" or why the scan stopped by itself
    [[nodiscard]] bool has_bad() const noexcept { return bad_ranges > 0; }
};

// The faults of RESULT; empty for another kind or a result from before 0.9.
SurfaceFaults surface_faults(const SavedResult& result);

// The ranges and spots of a result that draws its faults as a scan does
// (the burn-in too): its "bad", "bad_errno", "slow" and "slow_again"
// series, into FAULTS, whose counts the caller sets from its own summary.
void read_fault_series(const SavedResult& result, SurfaceFaults& faults);

// One line: "3 bad ranges, 24 MiB unreadable, the first at 1.2 TiB; 17 slow
// spots, 2 of them slow every time", or that none were found. Translated.
std::string surface_fault_line(const SurfaceFaults& faults);

// Every bad range ("LBA 20480–20487 (4 KiB) at 10 MiB: Input/output error")
// and slow spot, one per line, for details and copy as text. Translated.
std::string surface_fault_list(const SurfaceFaults& faults);

} // namespace diskbench::client
