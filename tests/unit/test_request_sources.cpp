// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/request_feed.hpp"
#include "io/request_sources.hpp"

#include <catch2/catch.hpp>

#include <thread>
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

TEST_CASE("a request feed deals request i to worker i % workers, asking for more only when one runs dry",
          "[sources]")
{
    // A generator of 10 requests at offsets 0..9, a chunk of 3 per call.
    std::uint64_t made = 0;
    unsigned calls = 0;
    RequestFeed feed(
        [&](std::vector<IoRequest>& requests, std::size_t count) {
            ++calls;
            for (; requests.size() < count && made < 10; ++made)
                requests.push_back({ made, 512 });
        },
        2, 3);
    auto first = feed.source(0);
    auto second = feed.source(1);
    IoRequest request;
    REQUIRE(first->next(request));
    CHECK(request.offset == 0);
    CHECK(calls == 1); // 0, 2 for the first worker, 1 for the second
    REQUIRE(second->next(request));
    CHECK(request.offset == 1);
    const auto rest_of_first = drain(*first);
    const auto rest_of_second = drain(*second);
    std::vector<std::uint64_t> evens, odds;
    for (const IoRequest& r : rest_of_first)
        evens.push_back(r.offset);
    for (const IoRequest& r : rest_of_second)
        odds.push_back(r.offset);
    CHECK(evens == std::vector<std::uint64_t> { 2, 4, 6, 8 });
    CHECK(odds == std::vector<std::uint64_t> { 3, 5, 7, 9 });
    CHECK_FALSE(first->next(request));
    CHECK_FALSE(second->next(request));
}

TEST_CASE("a request feed hands every request out once to workers on their own threads", "[sources]")
{
    constexpr std::uint64_t total = 100000;
    std::uint64_t made = 0;
    RequestFeed feed(
        [&](std::vector<IoRequest>& requests, std::size_t count) {
            for (; requests.size() < count && made < total; ++made)
                requests.push_back({ made, 4096 });
        },
        4, 64);
    std::vector<std::vector<IoRequest>> got(4);
    std::vector<std::thread> workers;
    for (unsigned w = 0; w < 4; ++w)
        workers.emplace_back([&, w] {
            auto source = feed.source(w);
            got[w] = drain(*source, total);
        });
    for (auto& worker : workers)
        worker.join();
    std::vector<bool> seen(total, false);
    std::uint64_t count = 0;
    for (unsigned w = 0; w < 4; ++w)
        for (const IoRequest& r : got[w]) {
            CHECK(r.offset % 4 == w);
            REQUIRE(r.offset < total);
            CHECK_FALSE(seen[r.offset]);
            seen[r.offset] = true;
            ++count;
        }
    CHECK(count == total);
}
