// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/prng.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <set>

using diskbench::engine::SplitMix64;
using diskbench::engine::Xoshiro256StarStar;

TEST_CASE("SplitMix64 matches the published reference sequence", "[prng]")
{
    // The SplitMix64 sequence for seed 1234567 as published with the
    // algorithm (also the Rosetta Code task's expected output).
    SplitMix64 generator(1234567);
    const std::array<std::uint64_t, 5> expected { 6457827717110365317ULL, 3203168211198807973ULL,
                                                  9817491932198370423ULL, 4593380528125082431ULL,
                                                  16408922859458223821ULL };
    for (auto value : expected)
        CHECK(generator.next() == value);
}

TEST_CASE("xoshiro256** gives the golden values for fixed seeds", "[prng]")
{
    // Computed with an independent Python transcription of the reference C
    // code (xoshiro256starstar.c, state from SplitMix64 of the seed). If
    // these change, every stored result's offsets changed: do not "fix" the
    // numbers, fix the generator.
    SECTION("seed 0")
    {
        Xoshiro256StarStar generator(0);
        const std::array<std::uint64_t, 5> expected { 11091344671253066420ULL, 13793997310169335082ULL,
                                                      1900383378846508768ULL, 7684712102626143532ULL,
                                                      13521403990117723737ULL };
        for (auto value : expected)
            CHECK(generator.next() == value);
    }
    SECTION("seed 42")
    {
        Xoshiro256StarStar generator(42);
        const std::array<std::uint64_t, 5> expected { 1546998764402558742ULL, 6990951692964543102ULL,
                                                      12544586762248559009ULL, 17057574109182124193ULL,
                                                      18295552978065317476ULL };
        for (auto value : expected)
            CHECK(generator.next() == value);
    }
}

TEST_CASE("below() is reproducible, in range and covers the range", "[prng]")
{
    Xoshiro256StarStar generator(42);
    const std::array<std::uint64_t, 8> expected { 83, 378, 680, 924, 991, 769, 719, 850 };
    for (auto value : expected)
        CHECK(generator.below(1000) == value);

    Xoshiro256StarStar wide(7);
    std::set<std::uint64_t> seen;
    for (int i = 0; i < 10000; ++i) {
        const auto value = wide.below(10);
        REQUIRE(value < 10);
        seen.insert(value);
    }
    CHECK(seen.size() == 10);
    Xoshiro256StarStar one(7);
    CHECK(one.below(1) == 0);
}
