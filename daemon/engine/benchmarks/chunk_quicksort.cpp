// SPDX-License-Identifier: GPL-3.0-or-later
// Which quicksort, and why it reads so much: DiskThrasher's write-up says
// the sort "does roughly twice as much reading as writing", and its sample
// run (20447 chunks read, 11458 written by four threads over 256-chunk
// files: 20 reads and 11 writes per chunk) cannot come from a sort that
// keeps the keys in memory, which would read only to swap (reads = writes
// / 2). So, as there, a comparison reads the whole chunk from the file (one
// 1 MiB read, "read in one go") and only the pivot stays in memory.
//
// The partition is Lomuto's (pivot = last chunk of the range, swapped into
// place at the end): on random keys it reads 1.7 chunks per chunk written,
// the ratio DiskThrasher reports (1.8); Hoare's partition swaps a third as
// often and would read 3.4 per write, a different mix. Its weakness, many
// equal keys (quadratic), does not arise: keys are 8 random bytes.
#include "chunk_quicksort.hpp"

#include "../io/io_buffers.hpp"

#include <optional>

namespace diskbench::engine::benchmarks {

std::uint64_t chunk_key(const std::byte* chunk) noexcept
{
    std::uint64_t key = 0;
    for (std::size_t i = 0; i < chunk_key_bytes; ++i)
        key = key << 8 | static_cast<std::uint8_t>(chunk[i]);
    return key;
}

namespace {

class Sorter {
public:
    Sorter(ChunkStore& store, std::size_t chunk_size, std::size_t alignment)
        : store_(store), buffers_(3, chunk_size, alignment), pivot_(buffers_.slot(0)), scanned_(buffers_.slot(1)),
          other_(buffers_.slot(2))
    {
    }

    // Chunks lo..hi inclusive. Recurses into the smaller side only and
    // loops on the larger, so the stack stays within log2(count) frames.
    bool sort(std::uint64_t lo, std::uint64_t hi)
    {
        while (lo < hi) {
            if (store_.stop_requested())
                return false;
            const auto split = partition(lo, hi);
            if (!split)
                return false;
            const std::uint64_t middle = *split;
            if (middle - lo < hi - middle) {
                if (middle > lo && !sort(lo, middle - 1))
                    return false;
                lo = middle + 1;
            } else {
                if (!sort(middle + 1, hi))
                    return false;
                if (middle == lo)
                    return true;
                hi = middle - 1;
            }
        }
        return true;
    }

    ChunkSortCounts counts;

private:
    // Returns where the pivot ended up, or nothing when stopped.
    std::optional<std::uint64_t> partition(std::uint64_t lo, std::uint64_t hi)
    {
        read(hi, pivot_);
        const std::uint64_t pivot_key = chunk_key(pivot_);
        std::uint64_t store_at = lo; // chunks before it are below the pivot
        for (std::uint64_t scan = lo; scan < hi; ++scan) {
            if (store_.stop_requested())
                return std::nullopt;
            read(scan, scanned_);
            ++counts.comparisons;
            if (chunk_key(scanned_) >= pivot_key)
                continue;
            if (store_at != scan)
                swap_with(store_at, scan, scanned_);
            ++store_at;
        }
        if (store_at != hi)
            swap_with(store_at, hi, pivot_);
        return store_at;
    }

    // Exchanges chunk `to` with chunk `from`, whose data is already in
    // `held`: reads `to`, writes `held` there and `to`'s old data at `from`.
    void swap_with(std::uint64_t to, std::uint64_t from, const std::byte* held)
    {
        read(to, other_);
        write(to, held);
        write(from, other_);
        ++counts.swaps;
    }

    void read(std::uint64_t index, std::byte* into)
    {
        store_.read(index, into);
        ++counts.reads;
    }

    void write(std::uint64_t index, const std::byte* from)
    {
        store_.write(index, from);
        ++counts.writes;
    }

    ChunkStore& store_;
    IoBuffers buffers_;
    std::byte* pivot_;
    std::byte* scanned_;
    std::byte* other_;
};

// Chunks that are nothing but their keys, in memory.
class KeyStore final : public ChunkStore {
public:
    explicit KeyStore(std::vector<std::uint64_t>& keys) : keys_(keys) {}
    void read(std::uint64_t index, std::byte* into) override
    {
        for (std::size_t i = 0; i < chunk_key_bytes; ++i)
            into[i] = static_cast<std::byte>(keys_[index] >> (8 * (chunk_key_bytes - 1 - i)));
    }
    void write(std::uint64_t index, const std::byte* from) override { keys_[index] = chunk_key(from); }

private:
    std::vector<std::uint64_t>& keys_;
};

} // namespace

ChunkSortCounts chunk_quicksort_keys(std::vector<std::uint64_t>& keys)
{
    KeyStore store(keys);
    return chunk_quicksort(store, keys.size(), chunk_key_bytes, alignof(std::uint64_t));
}

ChunkSortCounts chunk_quicksort(ChunkStore& store, std::uint64_t count, std::size_t chunk_size, std::size_t alignment)
{
    Sorter sorter(store, chunk_size, alignment);
    sorter.counts.finished = count < 2 || sorter.sort(0, count - 1);
    return sorter.counts;
}

} // namespace diskbench::engine::benchmarks
