// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmarks/profile_tests.hpp"

#include <catch2/catch.hpp>

using namespace diskbench::engine::benchmarks;

TEST_CASE("profile tests parse the CrystalDiskMark notation", "[profile]")
{
    const auto test = parse_profile_test(" RND4K Q32T16 ");
    REQUIRE(test);
    CHECK(test->random);
    CHECK(test->block == 4096);
    CHECK(test->queue_depth == 32);
    CHECK(test->threads == 16);
    CHECK(test->label() == "RND4K Q32T16");
    CHECK(test->summary_key() == "rnd4k_q32t16");

    const auto seq = parse_profile_test("SEQ1M Q8T1");
    REQUIRE(seq);
    CHECK_FALSE(seq->random);
    CHECK(seq->block == 1024 * 1024);
    CHECK(seq->label() == "SEQ1M Q8T1");
    CHECK(parse_profile_test("SEQ128K Q32T1")->label() == "SEQ128K Q32T1");
}

TEST_CASE("malformed profile tests are refused", "[profile]")
{
    for (const char* bad : { "", "SEQ", "SEQ1M", "SEQ1G Q1T1", "SEQ0K Q1T1", "SEQ1M Q0T1", "SEQ1M Q1T0",
                             "SEQ1M Q2000T1", "SEQ1M Q1T65", "XYZ1M Q1T1", "SEQ1M Q1T1 extra", "SEQ-1M Q1T1",
                             "SEQ128M Q1T1" }) {
        INFO(bad);
        CHECK_FALSE(parse_profile_test(bad));
    }
    CHECK_FALSE(parse_profile_tests(""));
    CHECK_FALSE(parse_profile_tests("SEQ1M Q1T1,,RND4K Q1T1"));
    CHECK_FALSE(parse_profile_tests(",SEQ1M Q1T1"));
}

TEST_CASE("presets expand to their four tests", "[profile]")
{
    const auto standard = parse_profile_tests(preset_tests("default"));
    REQUIRE(standard);
    REQUIRE(standard->size() == 4);
    CHECK((*standard)[0].label() == "SEQ1M Q8T1");
    CHECK((*standard)[3].label() == "RND4K Q1T1");
    const auto nvme = parse_profile_tests(preset_tests("nvme"));
    REQUIRE(nvme);
    CHECK((*nvme)[1].label() == "SEQ128K Q32T1");
    CHECK((*nvme)[2].label() == "RND4K Q32T16");
}
