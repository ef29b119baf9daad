// SPDX-License-Identifier: GPL-3.0-or-later
// Where the overview samples the read rate (daemon/engine/benchmarks/
// overview_samples): spread evenly from the start to the end of the
// device, as GNOME Disks does, aligned, without overflow on the largest
// devices, and fewer when the device holds fewer places. The overview
// itself runs on a loop device in tests/integration/test_overview.py.
#include "benchmarks/overview_samples.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace diskbench::engine::benchmarks;

namespace {
constexpr std::uint64_t MiB = 1024 * 1024, GiB = 1024 * MiB, TiB = 1024 * GiB;
}

TEST_CASE("samples from the first byte to the last, evenly spread and aligned", "[sources]")
{
    const auto offsets = sample_offsets(4 * GiB, 10 * MiB, 100, MiB);
    REQUIRE(offsets.size() == 100);
    CHECK(offsets.front() == 0);
    CHECK(offsets.back() == 4 * GiB - 10 * MiB); // the last sample ends at the device's end
    CHECK(std::is_sorted(offsets.begin(), offsets.end()));
    for (const std::uint64_t offset : offsets)
        CHECK(offset % MiB == 0);
    // Evenly: neighbours differ by the same step, give or take the alignment.
    const std::uint64_t step = (4 * GiB - 10 * MiB) / 99;
    for (std::size_t i = 1; i < offsets.size(); ++i) {
        CHECK(offsets[i] - offsets[i - 1] + MiB > step);
        CHECK(offsets[i] - offsets[i - 1] < step + MiB);
    }
}

TEST_CASE("the largest devices: no overflow, the last sample still at the end", "[sources]")
{
    const std::uint64_t span = 64 * TiB + 512 * 3; // an odd end
    const auto offsets = sample_offsets(span, 10 * MiB, 10'000, 4096);
    REQUIRE(offsets.size() == 10'000);
    CHECK(offsets.back() == (span - 10 * MiB) / 4096 * 4096);
    CHECK(offsets[5000] > 31 * TiB);
    CHECK(offsets[5000] < 33 * TiB);
}

TEST_CASE("a small device holds fewer distinct places; nothing fits, nothing is read", "[sources]")
{
    // 64 MiB, 10 MiB samples on 1 MiB starts: 55 places, each once.
    const auto offsets = sample_offsets(64 * MiB, 10 * MiB, 100, MiB);
    CHECK(offsets.size() == 55);
    CHECK(std::adjacent_find(offsets.begin(), offsets.end()) == offsets.end());
    CHECK(offsets.back() == 54 * MiB);
    CHECK(sample_offsets(5 * MiB, 10 * MiB, 100, MiB).empty());
    CHECK(sample_offsets(64 * MiB, 0, 100, MiB).empty());
    CHECK(sample_offsets(64 * MiB, 10 * MiB, 1, MiB) == std::vector<std::uint64_t> { 0 });
}
