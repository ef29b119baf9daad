// SPDX-License-Identifier: GPL-3.0-or-later
// The capacity check's arithmetic (daemon/engine/benchmarks/capacity_probe):
// where the probes go, what a block read back says, and, on a model of a
// fake stick in memory, that the layout finds the real size of a wrapping
// device to the sector whatever that size is, and that the bisection
// narrows a dropping one to less than a block. The check itself, on real
// loop devices that wrap and drop, is in
// tests/integration/test_verify_capacity.py.
#include "benchmarks/capacity_probe.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <tuple>

using namespace diskbench::engine::benchmarks;

namespace {

constexpr std::uint64_t KiB = 1024, MiB = 1024 * KiB;
constexpr std::uint64_t key = 0x1234'5678'9abc'def0ULL;

std::vector<std::byte> filler_of(std::size_t size)
{
    std::vector<std::byte> filler(size);
    std::mt19937_64 random(7);
    for (std::byte& b : filler)
        b = static_cast<std::byte>(random());
    return filler;
}

// A stick that claims `claimed` bytes and keeps `real`: beyond, writes land
// at offset % real (wraps) or vanish and read as zeros (drops).
struct FakeStick {
    std::uint64_t claimed, real;
    bool wraps;
    std::vector<std::byte> flash = std::vector<std::byte>(real);

    void write(std::uint64_t offset, const std::vector<std::byte>& data)
    {
        for (std::size_t i = 0; i < data.size(); ++i) {
            const std::uint64_t at = offset + i;
            if (at < real)
                flash[at] = data[i];
            else if (wraps)
                flash[at % real] = data[i];
        }
    }
    std::vector<std::byte> read(std::uint64_t offset, std::size_t size) const
    {
        std::vector<std::byte> data(size);
        for (std::size_t i = 0; i < size; ++i) {
            const std::uint64_t at = offset + i;
            data[i] = at < real ? flash[at] : wraps ? flash[at % real] : std::byte { 0 };
        }
        return data;
    }
};

// What verify_capacity.cpp does with the stick, minus the I/O runner: the
// probes written from the end down, read back in order; the first lost
// sector and what it held.
struct Found {
    std::optional<std::uint64_t> lost_at, holds;
    std::uint64_t good_end = 0;
};

Found probe(FakeStick& stick, const ProbeLayout& layout, const std::vector<std::byte>& filler)
{
    std::vector<std::byte> block(layout.block);
    for (auto it = layout.offsets.rbegin(); it != layout.offsets.rend(); ++it) {
        stamp_probe(block, filler, *it, key);
        stick.write(*it, block);
    }
    Found found;
    for (const std::uint64_t offset : layout.offsets) {
        const ProbeCheck check = check_probe(stick.read(offset, layout.block), filler, offset, key);
        if (!check.intact()) {
            found.lost_at = check.first_lost;
            found.holds = check.first_lost_holds;
            if (*check.first_lost > offset)
                found.good_end = *check.first_lost;
            return found;
        }
        found.good_end = offset + layout.block;
    }
    return found;
}

} // namespace

TEST_CASE("probes: a head written whole, then one block every spacing, and the claimed end", "[faults]")
{
    const ProbeLayout layout = plan_probes(64 * MiB, 64 * KiB, 512, 100);
    CHECK(layout.spacing == 640 * KiB); // 64 MiB / 100, whole blocks
    CHECK(layout.head_blocks == 10);
    for (std::size_t i = 0; i < layout.head_blocks; ++i)
        CHECK(layout.offsets[i] == i * 64 * KiB);
    CHECK(std::is_sorted(layout.offsets.begin(), layout.offsets.end()));
    CHECK(std::adjacent_find(layout.offsets.begin(), layout.offsets.end()) == layout.offsets.end());
    CHECK(layout.offsets.back() == 64 * MiB - 64 * KiB);
    for (std::size_t i = layout.head_blocks; i + 1 < layout.offsets.size(); ++i)
        CHECK(layout.offsets[i + 1] - layout.offsets[i] <= layout.spacing);

    // An odd size: the last block ends at the claimed end, on the logical block.
    const ProbeLayout odd = plan_probes(10 * MiB + 3 * 512, 64 * KiB, 512, 100);
    CHECK(odd.offsets.back() + 64 * KiB == 10 * MiB + 3 * 512);
    // A device of few blocks: every block a probe.
    const ProbeLayout tiny = plan_probes(8 * 64 * KiB, 64 * KiB, 512, 100);
    CHECK(tiny.offsets.size() == 8);
}

TEST_CASE("the head's size is known before the layout is built", "[faults]")
{
    for (const auto& [claimed, block, probes] : { std::tuple { 64 * MiB, 64 * KiB, 100 }, { 8 * MiB, 16 * KiB, 100 },
                                                  { 10 * MiB + 3 * 512, 64 * KiB, 100 }, { 512 * KiB, 64 * KiB, 100 },
                                                  { 4096 * MiB, 512, 1000 } }) {
        INFO(claimed << " " << block << " " << probes);
        CHECK(planned_head_blocks(claimed, block, probes) == plan_probes(claimed, block, 512, probes).head_blocks);
    }
    // A 16 TB disk, 512-byte blocks, 100 probes: 312 million head blocks,
    // refused by the check before any offset is stored.
    CHECK(planned_head_blocks(16'000'000'000'000ULL, 512, 100) > 300'000'000);
}

TEST_CASE("the probes are counted before the layout is built, as many as it has", "[faults]")
{
    // Sizes on and off the block, spacings that end on the claimed end and
    // ones that do not, a device of fewer blocks than probes, 4 KiB sectors.
    for (const std::uint64_t claimed : { 64 * MiB, 10 * MiB + 3 * 512, 8 * 64 * KiB, 64 * KiB, 1000 * MiB + 4096,
                                         3 * MiB + 512 * 7 })
        for (const std::uint32_t block : { 512U, 4096U, 64U * 1024U })
            for (const std::uint32_t logical : { 512U, 4096U })
                for (const std::uint64_t probes : { 1ULL, 7ULL, 64ULL, 100ULL, 5000ULL }) {
                    if (claimed < block || block % logical != 0 || claimed % logical != 0)
                        continue;
                    INFO(claimed << " " << block << " " << logical << " " << probes);
                    const ProbeLayout layout = plan_probes(claimed, block, logical, probes);
                    const PlannedProbes planned = planned_probes(claimed, block, logical, probes);
                    CHECK(planned.blocks == layout.offsets.size());
                    CHECK(planned.spacing == layout.spacing);
                }
    // A 16 TB disk with a million probes of 64 KiB: counted without a
    // million offsets in memory.
    const PlannedProbes big = planned_probes(16'000'000'000'000ULL, 64 * 1024, 512, 1'000'000);
    CHECK(big.blocks > 1'000'000);
}

TEST_CASE("a probe read back: intact, zeros, another sector's data, another run's data", "[faults]")
{
    const std::vector<std::byte> filler = filler_of(4096);
    std::vector<std::byte> block(4096);
    stamp_probe(block, filler, 1 * MiB, key);
    CHECK(check_probe(block, filler, 1 * MiB, key).intact());
    CHECK(check_probe(block, filler, 1 * MiB, key).sectors == 8);

    const ProbeCheck zeros = check_probe(std::vector<std::byte>(4096), filler, 1 * MiB, key);
    CHECK(zeros.intact_sectors == 0);
    CHECK(zeros.first_lost == 1 * MiB);
    CHECK_FALSE(zeros.first_lost_holds);

    // What the block at 8 KiB carries, read at 1 MiB: a wrap of 1 MiB - 8 KiB.
    stamp_probe(block, filler, 8 * KiB, key);
    const ProbeCheck aliased = check_probe(block, filler, 1 * MiB, key);
    CHECK(aliased.first_lost == 1 * MiB);
    CHECK(aliased.first_lost_holds == 8 * KiB);
    CHECK(wrap_size(*aliased.first_lost, aliased.first_lost_holds) == 1 * MiB - 8 * KiB);

    // The same place written by an earlier run (another key) is lost, not intact.
    stamp_probe(block, filler, 1 * MiB, key + 1);
    CHECK(check_probe(block, filler, 1 * MiB, key).intact_sectors == 0);

    // Half the block kept: the first lost sector is where it ends.
    stamp_probe(block, filler, 1 * MiB, key);
    std::fill(block.begin() + 1536, block.end(), std::byte { 0 });
    const ProbeCheck half = check_probe(block, filler, 1 * MiB, key);
    CHECK(half.intact_sectors == 3);
    CHECK(half.first_lost == 1 * MiB + 1536);
    // One flipped byte inside a sector's data is a lost sector too.
    stamp_probe(block, filler, 1 * MiB, key);
    block[2048 + 100] ^= std::byte { 1 };
    CHECK(check_probe(block, filler, 1 * MiB, key).first_lost == 1 * MiB + 2048);
}

TEST_CASE("a wrapping stick: its real size to the sector, wherever it ends", "[faults]")
{
    const std::uint64_t claimed = 8 * MiB;
    const ProbeLayout layout = plan_probes(claimed, 16 * KiB, 512, 100);
    const std::vector<std::byte> filler = filler_of(layout.block);
    std::mt19937_64 random(30);
    // Not below one block: a stick that small wraps a block onto itself
    // (and none is sold).
    std::vector<std::uint64_t> sizes { layout.block, layout.spacing - 512, layout.spacing, layout.spacing + 512,
                                       claimed / 2, claimed - 512 };
    for (int i = 0; i < 40; ++i)
        sizes.push_back(layout.block + random() % ((claimed - layout.block) / 512) * 512);
    for (const std::uint64_t real : sizes) {
        INFO("real size " << real);
        FakeStick stick { claimed, real, true };
        const Found found = probe(stick, layout, filler);
        REQUIRE(found.lost_at);
        CHECK(wrap_size(*found.lost_at, found.holds) == real);
    }
    FakeStick honest { claimed, claimed, true };
    CHECK_FALSE(probe(honest, layout, filler).lost_at);
}

TEST_CASE("a dropping stick: the bisection ends within one block of its real size", "[faults]")
{
    const std::uint64_t claimed = 8 * MiB;
    const std::uint32_t block = 16 * KiB;
    const ProbeLayout layout = plan_probes(claimed, block, 512, 100);
    const std::vector<std::byte> filler = filler_of(block);
    std::mt19937_64 random(31);
    for (int i = 0; i < 40; ++i) {
        const std::uint64_t real = (random() % (claimed / 512 - 1) + 1) * 512;
        INFO("real size " << real);
        FakeStick stick { claimed, real, false };
        Found found = probe(stick, layout, filler);
        REQUIRE(found.lost_at);
        REQUIRE_FALSE(wrap_size(*found.lost_at, found.holds));
        std::uint64_t good_end = found.good_end, lost_from = *found.lost_at;
        int steps = 0;
        std::vector<std::byte> data(block);
        while (const auto at = bisection_offset(good_end, lost_from, block, 512)) {
            REQUIRE(*at >= good_end);
            REQUIRE(*at + block <= lost_from);
            stamp_probe(data, filler, *at, key);
            stick.write(*at, data);
            const ProbeCheck check = check_probe(stick.read(*at, block), filler, *at, key);
            if (check.intact()) {
                good_end = *at + block;
            } else {
                lost_from = *check.first_lost;
                if (lost_from > *at)
                    good_end = lost_from;
            }
            REQUIRE(++steps < 64);
        }
        CHECK(good_end <= real);
        CHECK(real <= lost_from);
        CHECK(lost_from - good_end < block);
    }
}
