// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The sort at the heart of the mixed-load benchmark (DiskThrasher): a
// quicksort of a file's fixed-size chunks by the first 8 bytes of each,
// done on the chunks where they lie, through a ChunkStore. Kept apart from
// the benchmark so it can be tested against std::sort on chunks in memory,
// and run "dry" on the keys alone to know in advance how many chunk reads
// and writes the real sort will do (the count depends only on the keys).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace diskbench::engine::benchmarks {

// Bytes of a chunk's key: its first 8, read as a big-endian number, so the
// order is the bytes' order (memcmp) on every machine.
inline constexpr std::size_t chunk_key_bytes = 8;
std::uint64_t chunk_key(const std::byte* chunk) noexcept;

// Where the chunks live. Every read and write moves one whole chunk;
// the sort never touches part of one.
class ChunkStore {
public:
    virtual ~ChunkStore() = default;
    virtual void read(std::uint64_t index, std::byte* into) = 0;
    virtual void write(std::uint64_t index, const std::byte* from) = 0;
    // Asked before each step of a partition (at most one compare and one
    // swap, four chunk transfers); true ends the sort there, with every
    // chunk still in the store exactly once.
    virtual bool stop_requested() { return false; }
};

struct ChunkSortCounts {
    std::uint64_t comparisons = 0; // a chunk read to compare with the pivot
    std::uint64_t swaps = 0;       // two chunks exchanged: one read, two writes
    std::uint64_t reads = 0;       // chunk reads of any kind
    std::uint64_t writes = 0;
    bool finished = false;         // false: stop_requested() ended it early

    friend bool operator==(const ChunkSortCounts&, const ChunkSortCounts&) = default;
};

// Sorts chunks 0..count-1 of `chunk_size` bytes (at least chunk_key_bytes)
// into ascending key order. Buffers: three chunks, aligned to `alignment`
// (a power of two; the store's direct I/O needs it). Exceptions from the
// store pass through.
ChunkSortCounts chunk_quicksort(ChunkStore& store, std::uint64_t count, std::size_t chunk_size,
                                std::size_t alignment);

// The same sort on the keys alone, in memory: sorts `keys` and returns
// exactly the counts chunk_quicksort() has for chunks with these keys
// (the algorithm looks at nothing else).
ChunkSortCounts chunk_quicksort_keys(std::vector<std::uint64_t>& keys);

} // namespace diskbench::engine::benchmarks
