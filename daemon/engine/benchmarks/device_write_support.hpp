// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the device write benchmarks (TargetKind::DeviceWrite) share: the
// `mode` and `confirm` parameters every one of them takes, and batched
// writes that either put back what was on the device (preserve) or write
// fresh pseudo-random data (destroy), each batch timed with its fdatasync.

#include "../benchmark_support.hpp"

#include <functional>

namespace diskbench::engine::benchmarks {

enum class WriteMode { Preserve, Destroy };

// `mode` ("preserve", the default, or "destroy") and `confirm` (default "").
// The engine only declares `confirm`; the daemon checks that it names the
// device (its serial or node) before a destroying run.
std::vector<ParamSpec> write_mode_params(std::vector<ParamSpec> params, bool preserve_supported);

// The mode, checked: destroy needs a non-empty confirm
// (ParameterError("confirm")), and a kind without a preserve mode refuses
// mode=preserve (ParameterError("mode")), so that no caller destroys data
// by forgetting a parameter. Records summary["mode"].
WriteMode checked_write_mode(BenchmarkContext& ctx, bool preserve_supported);

// The most a preserve-mode batch keeps in memory (its copy of the device's
// data), and so the largest batch of all.
inline constexpr std::uint64_t max_preserved_batch_bytes = contract::kinds::max_preserved_bytes;

// One batch's requests, at most `count` of them, appended to `requests`;
// appending none ends the writes.
using NextBatch = std::function<void(std::vector<IoRequest>& requests, std::size_t count)>;

struct BatchedWritePlan {
    WriteMode mode = WriteMode::Preserve;
    // Each batch's requests are dealt out in turn to `workers` threads
    // (request i to worker i % workers), each with `queue_depth` in flight.
    unsigned workers = 1;
    unsigned queue_depth = 1;
    std::uint32_t block = 0;         // largest request
    std::uint64_t data_seed = 0;     // destroy mode's data
    std::uint64_t time_limit_ns = 0; // of measured (write + sync) time; 0: until the batches end
    // Requests per batch when each batch is a whole unit of the caller's
    // (the overview's sample, timed on its own; at most
    // max_preserved_batch_bytes of them); 0: batches grow as below.
    std::size_t fixed_batch = 0;
    NextBatch next_batch;
    // Told of each batch after its sync: bytes written, measured ns.
    std::function<void(std::uint64_t bytes, std::uint64_t ns)> batch_done;
    // What the block-layer cross-check calls the writes (IoRunSpec::phase),
    // whether they count (false: a warm-up's), and whether they go to
    // random places.
    std::string phase = "the writes";
    bool measured = true;
    bool random = false;
};

struct BatchedWriteStats {
    std::uint64_t operations = 0;
    std::uint64_t bytes = 0;
    std::uint64_t measured_ns = 0; // the writes and their syncs, not the reads
    LatencyHistogram latency;      // of each write, submission to completion
    bool cancelled = false;

    [[nodiscard]] double megabytes_per_second() const noexcept { return mb_per_s(bytes, measured_ns); }
    [[nodiscard]] double iops() const noexcept
    {
        return measured_ns ? static_cast<double>(operations) / (static_cast<double>(measured_ns) / 1e9) : 0.0;
    }
    [[nodiscard]] double seconds() const noexcept { return static_cast<double>(measured_ns) / 1e9; }
};

// Writes batch after batch until the batches end, the time limit is used up
// or the run is cancelled. Batches start small and grow to about a quarter
// of a second of writes (at most 64 MiB), so a slow disk's first batch
// does not overrun the time limit and a fast one's syncs stay rare.
BatchedWriteStats batched_writes(BenchmarkContext& ctx, const BatchedWritePlan& plan);

} // namespace diskbench::engine::benchmarks
