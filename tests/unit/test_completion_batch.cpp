// SPDX-License-Identifier: GPL-3.0-or-later
// How many completions the io_uring worker waits for at once
// (completion_batch.hpp): a quarter of those in flight while completions
// come fast, one at a time from a slow device, and back to one within a few
// windows when a fast device slows down.
#include "io/completion_batch.hpp"

#include <catch2/catch.hpp>

using diskbench::engine::detail::CompletionBatch;

namespace {

// Reaps `reaps` times, `per_reap` completions each, `gap_ns` apart per
// completion, from `now_ns` on; returns the time of the last reap.
std::uint64_t feed(CompletionBatch& batch, std::uint64_t now_ns, unsigned reaps, unsigned per_reap, std::uint64_t gap_ns)
{
    for (unsigned i = 0; i < reaps; ++i) {
        now_ns += per_reap * gap_ns;
        batch.reaped(per_reap, now_ns);
    }
    return now_ns;
}

} // namespace

TEST_CASE("a batch starts as one completion until the rate is known", "[uring]")
{
    CompletionBatch batch;
    CHECK(batch.wait_count(32) == 1);
    // Within the first rate window nothing is known yet.
    feed(batch, 1'000'000, 10, 1, 3'000);
    CHECK(batch.gap_ns() == 0);
    CHECK(batch.wait_count(32) == 1);
}

TEST_CASE("a fast device is waited for a quarter of the queue at a time", "[uring]")
{
    CompletionBatch batch;
    // 3 µs per completion, as the RAM-backed loop at QD32.
    feed(batch, 1'000'000, 400, 1, 3'000);
    CHECK(batch.gap_ns() == Approx(3'000).epsilon(0.05));
    CHECK(batch.wait_count(32) == 8);
    CHECK(batch.wait_count(16) == 4);
    // Shallow queues stay at one, however fast.
    CHECK(batch.wait_count(3) == 1);
    CHECK(batch.wait_count(1) == 1);
}

TEST_CASE("the rate is the mean over a window, not the gap before each reap", "[uring]")
{
    // A lull then a burst, over and over: one completion after 20 µs, seven
    // 0.1 µs apart; 3.3 µs per completion on average, a fast device. The
    // gaps of single reaps would say 20 µs half the time.
    CompletionBatch batch;
    std::uint64_t now = 1'000'000;
    for (unsigned i = 0; i < 200; ++i) {
        now = feed(batch, now, 1, 1, 20'000);
        now = feed(batch, now, 7, 1, 100);
    }
    CHECK(batch.gap_ns() == Approx(20'700 / 8).epsilon(0.1));
    CHECK(batch.wait_count(32) == 8);
}

TEST_CASE("a slow device keeps batches of one", "[uring]")
{
    CompletionBatch batch;
    // A disk: 5 ms per completion, even reaped several at a time.
    feed(batch, 1'000'000, 50, 4, 5'000'000);
    CHECK(batch.gap_ns() == Approx(5'000'000).epsilon(0.05));
    CHECK(batch.wait_count(32) == 1);
    // Just slower than the fast rule's bound.
    CompletionBatch sata;
    feed(sata, 1'000'000, 400, 1, CompletionBatch::kFastGapNs + 2'000);
    CHECK(sata.wait_count(32) == 1);
}

TEST_CASE("a fast device that slows down is waited for one at a time again within a few windows", "[uring]")
{
    CompletionBatch batch;
    std::uint64_t now = feed(batch, 1'000'000, 400, 1, 3'000);
    REQUIRE(batch.wait_count(32) == 8);
    // Now 200 µs per completion (a cache ran out), reaped a batch of 8 at a
    // time: 1.6 ms per reap, each reap a window of its own.
    unsigned reaps = 0;
    while (batch.wait_count(32) > 1 && reaps < 100) {
        now = feed(batch, now, 1, 8, 200'000);
        ++reaps;
    }
    CHECK(reaps <= 3);
    CHECK(batch.wait_count(32) == 1);
}
