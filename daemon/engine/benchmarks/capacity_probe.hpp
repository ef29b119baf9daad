// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The arithmetic of the capacity check (verify_capacity.cpp), apart from
// its I/O so that it can be tested on buffers: where the probe blocks go,
// what each carries, what a block read back says, and where the real
// capacity ends.
//
// A fake-capacity stick claims more than its flash holds. Writes past its
// real size either land at the start again (the controller ignores the
// high address bits or takes the address modulo its real size: "wraps")
// or vanish (reads return zeros, old data or errors: "drops"). Every
// 512-byte sector we write carries its own offset and a key drawn for the
// run, so a sector read back tells which of the two happened: our key with
// another sector's offset is a wrap, and the difference of the two offsets
// is the real size, to the sector; anything else is a drop, and a
// bisection of single blocks finds where it starts.
//
// Why the head: a wrapped write overwrites whatever is at its landing
// offset, but a read of it only shows that when something was written
// there *after* it. The probes are written from the end of the device
// down, and the first `spacing` bytes (the head) are written whole and
// last: the first probe at or beyond the real size R lies within `spacing`
// of R, so it lands in the head and is overwritten there, whatever R is.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace diskbench::engine::benchmarks {

inline constexpr std::uint32_t stamp_unit = 512; // every sector carries its stamp

struct ProbeLayout {
    std::uint64_t claimed = 0; // the device's size
    std::uint32_t block = 0;   // bytes per probe block
    std::uint64_t spacing = 0; // between probes; also the head's length
    // Ascending offsets: the head's blocks, then one block every
    // `spacing`, then the device's last block.
    std::vector<std::uint64_t> offsets;
    std::size_t head_blocks = 0;
};

// How many blocks plan_probes() would put in the head, computed without
// building the layout: a caller refuses a head too large before any
// memory is spent on it.
std::uint64_t planned_head_blocks(std::uint64_t claimed, std::uint32_t block, std::uint64_t probes) noexcept;

// What plan_probes() would lay out, computed without building it: the
// daemon checks a request before polkit is asked, and the layout of a big
// device is up to millions of offsets (16-20 ms of the bus thread a call);
// only an authorized run builds it, on its own thread.
struct PlannedProbes {
    std::uint64_t spacing = 0;
    std::uint64_t blocks = 0; // == plan_probes(...).offsets.size()
};
PlannedProbes planned_probes(std::uint64_t claimed, std::uint32_t block, std::uint32_t logical_block,
                             std::uint64_t probes) noexcept;

// The probes for a device of `claimed` bytes (a multiple of
// `logical_block`), `block` bytes each (a multiple of `logical_block`, at
// most `claimed`), about `probes` of them beyond the head: fewer when the
// device holds fewer blocks.
ProbeLayout plan_probes(std::uint64_t claimed, std::uint32_t block, std::uint32_t logical_block,
                        std::uint64_t probes);

// The bytes a probe block at `offset` carries: pseudo-random `filler`
// (at least one sector, whole sectors), each sector taking the filler's
// sector its device offset picks, with its first 16 bytes replaced by that
// offset and the key, little-endian.
void stamp_probe(std::span<std::byte> block, std::span<const std::byte> filler, std::uint64_t offset,
                 std::uint64_t key) noexcept;

// The stamps alone: every sector's first 16 bytes set to its device offset
// and the key, the rest left as it is. On a buffer that already holds the
// filler at a block-aligned offset (offset a multiple of filler.size(), the
// block at most that long) this gives what stamp_probe() gives, at 1/32 of
// its stores: how the burn-in stamps each write inside the timing.
void stamp_sectors(std::span<std::byte> block, std::uint64_t offset, std::uint64_t key) noexcept;

// What a block read back at `offset` holds.
struct ProbeCheck {
    std::uint32_t intact_sectors = 0; // sectors exactly as written
    std::uint32_t sectors = 0;
    // The first sector that is not: its offset, and, when it carries our
    // key with another sector's offset, that offset (a wrap).
    std::optional<std::uint64_t> first_lost;
    std::optional<std::uint64_t> first_lost_holds;
    [[nodiscard]] bool intact() const noexcept { return intact_sectors == sectors; }
};
ProbeCheck check_probe(std::span<const std::byte> read_back, std::span<const std::byte> filler, std::uint64_t offset,
                       std::uint64_t key) noexcept;

// Where the data ends, from the first lost sector at `lost_at`: a wrap when
// that sector holds our stamp of `holds` (an offset below it): the real
// size is the distance between the two. Empty otherwise (a drop: bisect).
std::optional<std::uint64_t> wrap_size(std::uint64_t lost_at, std::optional<std::uint64_t> holds) noexcept;

// One step of the bisection between `good_end` (everything below it read
// back intact) and `lost_at` (the first sector known lost): where to write
// the next test block of `block` bytes, aligned to `logical_block`; empty
// when no whole block fits between them any more.
std::optional<std::uint64_t> bisection_offset(std::uint64_t good_end, std::uint64_t lost_at, std::uint32_t block,
                                              std::uint32_t logical_block) noexcept;

} // namespace diskbench::engine::benchmarks
