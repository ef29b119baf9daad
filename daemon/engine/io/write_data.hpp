// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the write benchmarks write. Pseudo-random bytes from the engine's
// PRNG, because zeros or a repeated pattern are what compressing
// filesystems (btrfs, zfs) and compressing SSD controllers shrink, and a
// benchmark writing them measures the compressor. Each 512-byte sector is
// also stamped with its own offset before it goes out (fio's
// scramble_buffers does the same), so a run never writes two equal sectors
// and deduplication cannot merge them either.

#include <cstddef>
#include <cstdint>

namespace diskbench::engine {

// Fills `size` bytes from xoshiro256** seeded with `seed`; done once per
// buffer before the clock starts.
void fill_pseudo_random(std::byte* data, std::size_t size, std::uint64_t seed) noexcept;

// Overwrites the first 8 bytes of every 512-byte sector of a block about to
// be written at `offset` with that sector's offset: 1/64 of the bytes, cheap
// enough to do inside the timing.
void stamp_offsets(std::byte* block, std::uint32_t length, std::uint64_t offset) noexcept;

} // namespace diskbench::engine
