// SPDX-License-Identifier: GPL-3.0-or-later
// The mixed-load benchmark's sort on chunks in memory: the order std::sort
// gives the keys, every chunk kept whole and exactly once, the counts it
// reports matching the transfers it made and the dry run on the keys alone,
// and a stop that leaves the chunks intact.
#include "base/prng.hpp"
#include "benchmarks/chunk_quicksort.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <numeric>

using namespace diskbench::engine;
using namespace diskbench::engine::benchmarks;

namespace {

// Chunks of a key (big-endian) followed by the chunk's original index,
// so a test can tell that every chunk moved whole.
class MemoryChunks final : public ChunkStore {
public:
    static constexpr std::size_t chunk_size = 32;

    explicit MemoryChunks(const std::vector<std::uint64_t>& keys) : data_(keys.size() * chunk_size)
    {
        for (std::size_t i = 0; i < keys.size(); ++i) {
            std::byte* chunk = data_.data() + i * chunk_size;
            for (std::size_t b = 0; b < 8; ++b)
                chunk[b] = static_cast<std::byte>(keys[i] >> (56 - 8 * b));
            const std::uint64_t origin = i;
            std::memcpy(chunk + 8, &origin, sizeof origin);
            std::memset(chunk + 16, static_cast<int>(i & 0xff), chunk_size - 16);
        }
    }

    void read(std::uint64_t index, std::byte* into) override
    {
        REQUIRE(index < count());
        std::memcpy(into, data_.data() + index * chunk_size, chunk_size);
        ++reads;
    }
    void write(std::uint64_t index, const std::byte* from) override
    {
        REQUIRE(index < count());
        std::memcpy(data_.data() + index * chunk_size, from, chunk_size);
        ++writes;
    }
    bool stop_requested() override { return stop_after != 0 && reads + writes >= stop_after; }

    [[nodiscard]] std::uint64_t count() const { return data_.size() / chunk_size; }
    [[nodiscard]] std::uint64_t key(std::uint64_t index) const { return chunk_key(data_.data() + index * chunk_size); }
    [[nodiscard]] std::uint64_t origin(std::uint64_t index) const
    {
        std::uint64_t value = 0;
        std::memcpy(&value, data_.data() + index * chunk_size + 8, sizeof value);
        return value;
    }
    [[nodiscard]] std::vector<std::uint64_t> keys() const
    {
        std::vector<std::uint64_t> all;
        for (std::uint64_t i = 0; i < count(); ++i)
            all.push_back(key(i));
        return all;
    }
    // Every original chunk exactly once, with its own key and filler.
    void check_permutation_of(const std::vector<std::uint64_t>& original) const
    {
        std::vector<bool> seen(count());
        for (std::uint64_t i = 0; i < count(); ++i) {
            const std::uint64_t from = origin(i);
            REQUIRE(from < count());
            CHECK_FALSE(seen[from]);
            seen[from] = true;
            CHECK(key(i) == original[from]);
            CHECK(static_cast<std::uint8_t>(data_[i * chunk_size + chunk_size - 1]) == (from & 0xff));
        }
    }

    std::uint64_t reads = 0, writes = 0, stop_after = 0;

private:
    std::vector<std::byte> data_;
};

std::vector<std::uint64_t> random_keys(std::size_t count, std::uint64_t seed, std::uint64_t bound = 0)
{
    Xoshiro256StarStar rng(seed);
    std::vector<std::uint64_t> keys(count);
    for (auto& key : keys)
        key = bound ? rng.below(bound) : rng.next();
    return keys;
}

// Sorts `keys` as chunks and checks everything a correct sort must give.
ChunkSortCounts check_sort(const std::vector<std::uint64_t>& keys)
{
    MemoryChunks chunks(keys);
    const ChunkSortCounts counts = chunk_quicksort(chunks, keys.size(), MemoryChunks::chunk_size, 64);
    CHECK(counts.finished);
    std::vector<std::uint64_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    CHECK(chunks.keys() == expected);
    chunks.check_permutation_of(keys);
    // What it says it did is what the store saw.
    CHECK(counts.reads == chunks.reads);
    CHECK(counts.writes == chunks.writes);
    CHECK(counts.writes == 2 * counts.swaps);
    // A read per comparison, per swap and per pivot (at most one a chunk).
    CHECK(counts.reads >= counts.comparisons + counts.swaps);
    CHECK(counts.reads <= counts.comparisons + counts.swaps + keys.size());
    // The dry run on the keys alone does exactly the same.
    std::vector<std::uint64_t> dry = keys;
    CHECK(chunk_quicksort_keys(dry) == counts);
    CHECK(dry == expected);
    return counts;
}

} // namespace

TEST_CASE("chunk keys are the first 8 bytes in byte order", "[chunk-sort]")
{
    std::array<std::byte, 16> a {}, b {};
    a[0] = std::byte { 0x01 };
    b[0] = std::byte { 0x00 };
    std::fill(b.begin() + 1, b.end(), std::byte { 0xff });
    CHECK(chunk_key(a.data()) > chunk_key(b.data()));
    CHECK(chunk_key(a.data()) == 0x0100000000000000ULL);
    a[8] = std::byte { 0xff }; // past the key: ignored
    CHECK(chunk_key(a.data()) == 0x0100000000000000ULL);
}

TEST_CASE("the chunk sort orders chunks as std::sort orders their keys", "[chunk-sort]")
{
    for (std::size_t count : { 0, 1, 2, 3, 4, 5, 8, 31, 64, 100, 257 }) {
        for (std::uint64_t seed : { 1, 2, 3 }) {
            INFO(count << " chunks, seed " << seed);
            check_sort(random_keys(count, seed));
            // Duplicate keys: few distinct values, and all equal.
            check_sort(random_keys(count, seed, 3));
            check_sort(std::vector<std::uint64_t>(count, seed));
        }
        INFO(count << " chunks, sorted and reversed");
        std::vector<std::uint64_t> ascending(count);
        std::iota(ascending.begin(), ascending.end(), 0);
        check_sort(ascending);
        std::reverse(ascending.begin(), ascending.end());
        check_sort(ascending);
    }
}

TEST_CASE("one and two chunks cost exactly what they must", "[chunk-sort]")
{
    // One chunk is sorted already: nothing is read.
    CHECK(check_sort({ 42 }) == ChunkSortCounts { 0, 0, 0, 0, true });
    // In order: the pivot and the one comparison, no swap.
    CHECK(check_sort({ 1, 2 }) == ChunkSortCounts { 1, 0, 2, 0, true });
    // Out of order: one swap puts the pivot first (one more read, two writes).
    CHECK(check_sort({ 2, 1 }) == ChunkSortCounts { 1, 1, 3, 2, true });
    // An equal key is not below the pivot, so the pivot goes in front of it.
    CHECK(check_sort({ 7, 7 }) == ChunkSortCounts { 1, 1, 3, 2, true });
}

TEST_CASE("on random keys the sort reads about twice as much as it writes, as DiskThrasher's", "[chunk-sort]")
{
    // DiskThrasher's files: 256 chunks. Its sample run read 1.8 chunks per
    // chunk written; a quicksort keeping the keys in memory would read 0.5.
    double reads = 0, writes = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        std::vector<std::uint64_t> keys = random_keys(256, seed);
        const ChunkSortCounts counts = chunk_quicksort_keys(keys);
        CHECK(std::is_sorted(keys.begin(), keys.end()));
        reads += static_cast<double>(counts.reads);
        writes += static_cast<double>(counts.writes);
    }
    CHECK(reads / writes > 1.5);
    CHECK(reads / writes < 2.0);
    // n log n: about 12 reads and 7 writes per chunk, not n^2.
    CHECK(reads / 20 / 256 < 16);
    CHECK(writes / 20 / 256 < 10);
}

TEST_CASE("a stopped sort ends at once with every chunk still there exactly once", "[chunk-sort]")
{
    const std::vector<std::uint64_t> keys = random_keys(100, 7);
    std::vector<std::uint64_t> dry = keys;
    const ChunkSortCounts whole = chunk_quicksort_keys(dry);
    for (std::uint64_t stop_after : { 1, 2, 3, 50, 333, 1000 }) {
        INFO("stop after " << stop_after << " transfers");
        REQUIRE(stop_after < whole.reads + whole.writes);
        MemoryChunks chunks(keys);
        chunks.stop_after = stop_after;
        const ChunkSortCounts counts = chunk_quicksort(chunks, keys.size(), MemoryChunks::chunk_size, 64);
        CHECK_FALSE(counts.finished);
        // A step (one comparison and its swap: at most four transfers) is
        // finished before the stop is noticed, and the pivot's read after it.
        CHECK(chunks.reads + chunks.writes < stop_after + 4);
        CHECK(counts.reads == chunks.reads);
        CHECK(counts.writes == chunks.writes);
        chunks.check_permutation_of(keys);
    }
}
