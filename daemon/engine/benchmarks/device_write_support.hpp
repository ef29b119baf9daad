// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the device write benchmarks (TargetKind::DeviceWrite) share: the
// `mode` and `confirm` parameters every one of them takes, when the writes
// are flushed (`sync_every`), and the writes themselves, which either put
// back what was on the device (preserve: in batches, each read first and
// timed with its fdatasync) or write fresh pseudo-random data (destroy: one
// run that keeps the queue full and one fdatasync at the end, inside the
// timing, as fio's end_fsync=1 and CrystalDiskMark do).

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

// When the writes are flushed; recorded as summary["sync_rule"].
enum class SyncRule {
    AtEnd, // destroy mode's default: one fdatasync when the writes end
    Every, // one after each sync_every bytes (fio's fsync=, in bytes)
    Batch, // after each batch: preserve mode must read a range before it writes it back
};

// `sync_every` (default 0), for the kinds that take it.
ParamSpec sync_every_param();

// The rule for a run in `mode`, with `sync_every` checked (a whole number
// of logical blocks, ParameterError("sync_every") otherwise) when the
// kind's schema has it; records summary["sync_rule"] and, for Every and a
// preserve run that asked for it, summary["sync_every_bytes"].
struct SyncPlan {
    SyncRule rule = SyncRule::AtEnd;
    std::uint64_t every_bytes = 0; // 0: none asked
};
SyncPlan checked_sync_plan(BenchmarkContext& ctx, WriteMode mode);

// Adds `syncs` to summary["syncs"], the run's count of fdatasyncs.
void count_syncs(BenchmarkContext& ctx, std::uint64_t syncs);

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
    // Destroy mode's flush rule (preserve mode syncs every batch, batches
    // kept to at most sync.every_bytes when given).
    SyncPlan sync;
    // Requests per batch when each batch is a whole unit of the caller's
    // (the overview's sample, timed on its own; at most
    // max_preserved_batch_bytes of them); 0: batches grow as below.
    std::size_t fixed_batch = 0;
    NextBatch next_batch;
    // Told of each batch after its sync: bytes written, measured ns. A
    // destroy run that syncs only at the end has no batches: it is told
    // of each quarter of a second of completions instead, on an I/O thread
    // (never two calls at once), and of the last part with the sync.
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
    std::uint64_t syncs = 0;       // fdatasyncs made
    bool cancelled = false;

    [[nodiscard]] double megabytes_per_second() const noexcept { return mb_per_s(bytes, measured_ns); }
    [[nodiscard]] double iops() const noexcept
    {
        return measured_ns ? static_cast<double>(operations) / (static_cast<double>(measured_ns) / 1e9) : 0.0;
    }
    [[nodiscard]] double seconds() const noexcept { return static_cast<double>(measured_ns) / 1e9; }
};

// Writes until the batches end, the time limit is used up or the run is
// cancelled. Destroy mode with SyncRule::AtEnd asks next_batch for more
// while the writes run and never drains the queue; otherwise batch after
// batch, each synced: of sync.every_bytes (Every, and fixed_batch), or
// starting small and growing to about a quarter of a second of writes (at
// most 64 MiB), so a slow disk's first batch does not overrun the time
// limit and a fast one's syncs stay rare.
BatchedWriteStats batched_writes(BenchmarkContext& ctx, const BatchedWritePlan& plan);

} // namespace diskbench::engine::benchmarks
