// SPDX-License-Identifier: GPL-3.0-or-later
#include "capacity_probe.hpp"

#include <algorithm>
#include <cstring>

namespace diskbench::engine::benchmarks {

namespace {

constexpr std::size_t stamp_bytes = 16; // offset, key

void put_u64(std::byte* to, std::uint64_t value) noexcept
{
    for (int i = 0; i < 8; ++i)
        to[i] = static_cast<std::byte>(value >> (8 * i));
}

std::uint64_t get_u64(const std::byte* from) noexcept
{
    std::uint64_t value = 0;
    for (int i = 0; i < 8; ++i)
        value |= static_cast<std::uint64_t>(from[i]) << (8 * i);
    return value;
}

} // namespace

namespace {

// Whole blocks apart, so the head is whole blocks too.
std::uint64_t probe_spacing(std::uint64_t claimed, std::uint32_t block, std::uint64_t probes) noexcept
{
    const std::uint64_t blocks = claimed / block;
    probes = std::clamp<std::uint64_t>(probes, 1, std::max<std::uint64_t>(1, blocks));
    return std::max<std::uint64_t>(block, claimed / probes / block * block);
}

} // namespace

std::uint64_t planned_head_blocks(std::uint64_t claimed, std::uint32_t block, std::uint64_t probes) noexcept
{
    if (block == 0 || claimed < block)
        return 0;
    const std::uint64_t spacing = probe_spacing(claimed, block, probes);
    return std::min(spacing, claimed) / block;
}

PlannedProbes planned_probes(std::uint64_t claimed, std::uint32_t block, std::uint32_t logical_block,
                             std::uint64_t probes) noexcept
{
    PlannedProbes planned;
    if (block == 0 || logical_block == 0 || claimed < block)
        return planned;
    planned.spacing = probe_spacing(claimed, block, probes);
    // The same three parts as plan_probes(), counted: the head's blocks
    // (whole blocks below `spacing` that fit), one block at every multiple
    // of `spacing` that fits, and the last block when it is beyond both.
    const std::uint64_t fitting = (claimed - block) / block + 1;
    const std::uint64_t head = std::min(planned.spacing / block, fitting);
    const std::uint64_t spaced = (claimed - block) / planned.spacing;
    const std::uint64_t highest = std::max((head - 1) * block, spaced * planned.spacing);
    const std::uint64_t last = (claimed - block) / logical_block * logical_block;
    planned.blocks = head + spaced + (highest < last ? 1 : 0);
    return planned;
}

ProbeLayout plan_probes(std::uint64_t claimed, std::uint32_t block, std::uint32_t logical_block,
                        std::uint64_t probes)
{
    ProbeLayout layout;
    layout.claimed = claimed;
    layout.block = block;
    layout.spacing = probe_spacing(claimed, block, probes);
    for (std::uint64_t at = 0; at < layout.spacing && at + block <= claimed; at += block)
        layout.offsets.push_back(at);
    layout.head_blocks = layout.offsets.size();
    for (std::uint64_t at = layout.spacing; at + block <= claimed; at += layout.spacing)
        layout.offsets.push_back(at);
    // The claimed end itself: the last whole block, on the logical block.
    // It may overlap the probe before it; both write the same bytes there
    // (stamp_probe), so neither spoils the other.
    const std::uint64_t last = (claimed - block) / logical_block * logical_block;
    if (layout.offsets.back() < last)
        layout.offsets.push_back(last);
    return layout;
}

namespace {

// The filler bytes of the sector at device offset `at`: chosen by the
// sector's place on the device, not in its block, so two blocks that
// overlap write the same bytes to the sectors they share.
const std::byte* filler_for(std::span<const std::byte> filler, std::uint64_t at) noexcept
{
    const std::uint64_t sectors = filler.size() / stamp_unit;
    return filler.data() + (at / stamp_unit % sectors) * stamp_unit;
}

} // namespace

void stamp_probe(std::span<std::byte> block, std::span<const std::byte> filler, std::uint64_t offset,
                 std::uint64_t key) noexcept
{
    for (std::size_t at = 0; at + stamp_unit <= block.size(); at += stamp_unit) {
        std::memcpy(block.data() + at, filler_for(filler, offset + at), stamp_unit);
        put_u64(block.data() + at, offset + at);
        put_u64(block.data() + at + 8, key);
    }
}

void stamp_sectors(std::span<std::byte> block, std::uint64_t offset, std::uint64_t key) noexcept
{
    for (std::size_t at = 0; at + stamp_unit <= block.size(); at += stamp_unit) {
        put_u64(block.data() + at, offset + at);
        put_u64(block.data() + at + 8, key);
    }
}

ProbeCheck check_probe(std::span<const std::byte> read_back, std::span<const std::byte> filler, std::uint64_t offset,
                       std::uint64_t key) noexcept
{
    ProbeCheck check;
    for (std::size_t at = 0; at + stamp_unit <= read_back.size(); at += stamp_unit) {
        ++check.sectors;
        const std::byte* sector = read_back.data() + at;
        const bool ours = get_u64(sector + 8) == key;
        const bool intact = ours && get_u64(sector) == offset + at
            && std::memcmp(sector + stamp_bytes, filler_for(filler, offset + at) + stamp_bytes,
                           stamp_unit - stamp_bytes) == 0;
        if (intact) {
            ++check.intact_sectors;
            continue;
        }
        if (!check.first_lost) {
            check.first_lost = offset + at;
            if (ours)
                check.first_lost_holds = get_u64(sector);
        }
    }
    return check;
}

std::optional<std::uint64_t> wrap_size(std::uint64_t lost_at, std::optional<std::uint64_t> holds) noexcept
{
    if (!holds || *holds >= lost_at)
        return std::nullopt;
    return lost_at - *holds;
}

std::optional<std::uint64_t> bisection_offset(std::uint64_t good_end, std::uint64_t lost_at, std::uint32_t block,
                                              std::uint32_t logical_block) noexcept
{
    if (lost_at < good_end || lost_at - good_end < block)
        return std::nullopt;
    const std::uint64_t half = (lost_at - good_end - block) / 2;
    return good_end + half / logical_block * logical_block;
}

} // namespace diskbench::engine::benchmarks
