// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a burn-in writes and how it knows a block came back right: the
// capacity check's stamped sectors (capacity_probe.hpp), every 512-byte
// sector carrying its own device offset and the cycle's key over
// pseudo-random filler. A sector read back with another key is a write
// that was lost (old data, zeros); one with our key and another offset is
// a write that landed somewhere else (a controller that drops address
// bits, a remapped block gone wrong). A data pattern alone, as badblocks
// writes, tells neither: every block of a cycle looks the same.
//
// The writes go out at full queue depth from the I/O runner's own buffers
// (IoRunSpec::pattern): fill() puts the filler in each buffer once, and as
// every request starts at a multiple of the block, only the stamps change
// from one write to the next (stamp_sectors, inside the timing).

#include "../io/io_runner.hpp"
#include "capacity_probe.hpp"

#include <cstdint>
#include <vector>

namespace diskbench::engine::benchmarks {

class BurnInPattern final : public WritePattern {
public:
    // `block`: the largest request (a multiple of 512); `seed`: the
    // filler's; `key`: this cycle's; `inverted`: every filler bit flipped,
    // the second pattern (as badblocks alternates 0xaa and 0x55, so each
    // bit of the medium is written both ways).
    BurnInPattern(std::uint32_t block, std::uint64_t seed, std::uint64_t key, bool inverted);

    void fill(std::byte* buffer, std::uint32_t size) const override;
    void stamp(std::byte* buffer, const IoRequest& request) const override;

    // What the block read back for `request` holds against what was written.
    [[nodiscard]] ProbeCheck check(const std::byte* data, const IoRequest& request) const noexcept;
    [[nodiscard]] std::uint64_t key() const noexcept { return key_; }

private:
    std::vector<std::byte> filler_;
    std::uint64_t key_ = 0;
};

} // namespace diskbench::engine::benchmarks
