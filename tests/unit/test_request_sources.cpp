// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/request_sources.hpp"

#include <catch2/catch.hpp>

#include <vector>

using namespace diskbench::engine;

namespace {
std::vector<IoRequest> drain(RequestSource& source, std::size_t at_most = 100)
{
    std::vector<IoRequest> requests;
    IoRequest request;
    while (requests.size() < at_most && source.next(request))
        requests.push_back(request);
    return requests;
}
} // namespace

TEST_CASE("sequential source covers the span once and shortens the tail", "[sources]")
{
    SequentialSource source(4096, 4096 + 10 * 512, 2048, false);
    const auto requests = drain(source);
    REQUIRE(requests.size() == 3);
    CHECK(requests[0].offset == 4096);
    CHECK(requests[1].offset == 4096 + 2048);
    CHECK(requests[2].offset == 4096 + 4096);
    CHECK(requests[2].length == 1024);
}

TEST_CASE("sequential source wraps without short requests when asked", "[sources]")
{
    SequentialSource source(0, 5000, 2048, true, 5);
    const auto requests = drain(source);
    REQUIRE(requests.size() == 5);
    CHECK(requests[0].offset == 0);
    CHECK(requests[1].offset == 2048);
    CHECK(requests[2].offset == 0);
    for (const auto& r : requests)
        CHECK(r.length == 2048);
}

TEST_CASE("random source stays inside the span, aligned, and repeats for a seed", "[sources]")
{
    Xoshiro256StarStar a(3);
    Xoshiro256StarStar b(3);
    RandomSource first(a, 1 << 20, 2 << 20, 4096, 512, 1000);
    RandomSource second(b, 1 << 20, 2 << 20, 4096, 512, 1000);
    const auto one = drain(first, 2000);
    const auto two = drain(second, 2000);
    REQUIRE(one.size() == 1000);
    REQUIRE(two.size() == 1000);
    bool unaligned_to_block = false;
    for (std::size_t i = 0; i < one.size(); ++i) {
        CHECK(one[i].offset == two[i].offset);
        CHECK(one[i].offset >= (1u << 20));
        CHECK(one[i].offset + one[i].length <= (2u << 20));
        CHECK(one[i].offset % 512 == 0);
        unaligned_to_block |= one[i].offset % 4096 != 0;
    }
    CHECK(unaligned_to_block); // 512-byte alignment really is used
}

TEST_CASE("random source over a span smaller than a block gives nothing", "[sources]")
{
    Xoshiro256StarStar rng(1);
    RandomSource source(rng, 0, 1024, 4096, 4096);
    CHECK(drain(source).empty());
}
