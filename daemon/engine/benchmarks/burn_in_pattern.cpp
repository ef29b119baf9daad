// SPDX-License-Identifier: GPL-3.0-or-later
#include "burn_in_pattern.hpp"

#include "../io/write_data.hpp"

#include <algorithm>
#include <cstring>

namespace diskbench::engine::benchmarks {

BurnInPattern::BurnInPattern(std::uint32_t block, std::uint64_t seed, std::uint64_t key, bool inverted)
    : filler_(std::max<std::uint32_t>(block, stamp_unit)), key_(key)
{
    fill_pseudo_random(filler_.data(), filler_.size(), seed);
    if (inverted)
        for (std::byte& b : filler_)
            b = ~b;
}

void BurnInPattern::fill(std::byte* buffer, std::uint32_t size) const
{
    std::memcpy(buffer, filler_.data(), std::min<std::size_t>(size, filler_.size()));
}

void BurnInPattern::stamp(std::byte* buffer, const IoRequest& request) const
{
    const std::span block(buffer, request.length);
    // A request off the block grid would take other filler sectors than the
    // buffer holds: written whole then (the burn-in's own requests never are).
    if (request.offset % filler_.size() == 0 && request.length <= filler_.size())
        stamp_sectors(block, request.offset, key_);
    else
        stamp_probe(block, filler_, request.offset, key_);
}

ProbeCheck BurnInPattern::check(const std::byte* data, const IoRequest& request) const noexcept
{
    return check_probe({ data, request.length }, filler_, request.offset, key_);
}

} // namespace diskbench::engine::benchmarks
