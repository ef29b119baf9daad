// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>

namespace diskbench::contract {

// How the "surface" kind cuts a device into its map's buckets: `blocks`
// reads of `block_size` split into `wanted` buckets as evenly as whole
// blocks allow (sizes differ by at most one block), so a 1024-block device
// asked for 1000 buckets gets 1000, not 512 buckets of two. The engine
// fills the buckets; the clients draw one cell per bucket (the Surface
// page's error scan), so both use this one definition.
class BucketLayout {
public:
    BucketLayout(std::uint64_t blocks, std::uint64_t wanted) : blocks_(blocks), count_(std::min(blocks, wanted)) {}
    [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
    [[nodiscard]] std::uint64_t blocks() const noexcept { return blocks_; }
    [[nodiscard]] std::uint64_t bucket_of(std::uint64_t block) const noexcept
    {
        return static_cast<std::uint64_t>(static_cast<uint128>(block) * count_ / blocks_);
    }
    // The first block of bucket i (i == count() gives the end).
    [[nodiscard]] std::uint64_t first_block(std::uint64_t i) const noexcept
    {
        return static_cast<std::uint64_t>((static_cast<uint128>(i) * blocks_ + count_ - 1) / count_);
    }

private:
    __extension__ typedef unsigned __int128 uint128; // block x count may pass 2^64 on huge devices
    std::uint64_t blocks_;
    std::uint64_t count_;
};

} // namespace diskbench::contract
