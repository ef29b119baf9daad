// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a whole-surface scan finds wrong with a drive, and how it finds it
// without being stopped by it: reads that fail (bad sectors) and reads that
// are slow (weak sectors, or a one-off). The scan reads with
// IoRunSpec::tolerate_read_errors and stops at a failed read: narrow_failed_read()
// re-reads it in smaller pieces down to the logical block, FaultLog keeps
// the exact bad blocks, and the scan goes on after the failed read.
// Afterwards judge_slow_reads() times each slow block again. Memory stays
// bounded however sick the drive is: ranges are merged, only so many are
// kept (with a count of the rest), and the scan stops by itself when too
// much fails.

#include "../benchmark_kind.hpp"
#include "../io/io_request.hpp"
#include "../io/request_sources.hpp"
#include "../results/latency_histogram.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace diskbench::engine::benchmarks {

struct BadRange {
    std::uint64_t offset = 0; // bytes
    std::uint64_t length = 0; // bytes, a multiple of the logical block
    int error = 0;            // errno of the read
    bool narrowed = true;     // false: the re-read budget ran out before the logical block
};

struct SlowRead {
    std::uint64_t offset = 0;
    std::uint32_t length = 0;
    double ms = 0;        // the scan's read
    double again_ms = -1; // the re-read, -1 when not re-read
};

struct FaultLimits {
    std::uint64_t span = 0;            // bytes the scan reads
    std::uint32_t logical_block = 512;
    std::uint64_t max_bad_ranges = 1000; // the scan stops beyond this many failed reads...
    double max_bad_percent = 1.0;        // ...or this share of the span failed
    std::uint64_t reread_limit = 300;    // re-reads per failed read while narrowing
    double slow_floor_ms = 5;            // a read this slow is a candidate (20 ms on a rotating disk)
};

// The record of one scan. Called from the scan's thread and its I/O
// thread (the lock keeps that right).
class FaultLog {
public:
    explicit FaultLog(const FaultLimits& limits) : limits_(limits) {}

    // A read that completed: kept as a slow candidate when its latency
    // reaches the floor.
    void add_read(const IoCompletion& completion);
    // The bad blocks of one failed read (narrow_failed_read). Returns false
    // once the bad ranges pass a limit: the scan stops there.
    bool add_bad(const std::vector<BadRange>& ranges);

    // Why the scan stopped by itself ("max-bad-ranges", "max-bad-percent"),
    // "" when it did not.
    [[nodiscard]] std::string stop_reason() const;

    [[nodiscard]] std::vector<BadRange> bad_ranges() const;        // merged, at most max_bad_kept
    [[nodiscard]] std::uint64_t bad_range_count() const;           // merged, kept or not
    [[nodiscard]] std::uint64_t bad_bytes() const;
    [[nodiscard]] std::uint64_t failed_reads() const;              // of the scan
    [[nodiscard]] std::vector<SlowRead> slow_candidates() const;
    [[nodiscard]] std::uint64_t slow_candidates_dropped() const;
    [[nodiscard]] const FaultLimits& limits() const noexcept { return limits_; }

    // Bounds on what is kept: past them ranges are only counted (and the
    // scan stops at max_bad_ranges long before, unless told to go on), and
    // of the slow candidates the slowest are kept.
    static constexpr std::size_t max_bad_kept = 10'000;
    static constexpr std::size_t max_slow_kept = 10'000;

private:
    [[nodiscard]] bool within_limits() const;

    FaultLimits limits_;
    mutable std::mutex mutex_;
    std::vector<BadRange> bad_;
    std::uint64_t bad_count_ = 0; // merged ranges, bad_ and beyond
    std::uint64_t bad_bytes_ = 0;
    std::uint64_t failed_reads_ = 0;
    std::vector<SlowRead> slow_;
    std::uint64_t slow_dropped_ = 0;
};

// The bad blocks of a read that failed with ERROR: it is re-read in 16
// pieces, each failing piece again in 16, down to the logical block, at
// most limits.reread_limit reads: the exact bad blocks, merged. A piece
// still failing when the budget is spent is kept whole (narrowed = false).
// Stops early on cancel (what is known so far).
std::vector<BadRange> narrow_failed_read(BenchmarkContext& ctx, const IoRequest& failed, int error,
                                         const FaultLimits& limits);

// Merges touching ranges of the same error (sorted by offset) and keeps at
// most `keep` of them (the first ones on the disk); `dropped` gets how many
// merged ranges were not kept.
std::vector<BadRange> merge_ranges(std::vector<BadRange> ranges, std::size_t keep, std::uint64_t& dropped);

// The slow reads that are slow: latency >= threshold_ms. With `reread`,
// each is read once more (the slowest first, at most max_slow_rereads) and
// again_ms says whether it is slow every time (a weak sector) or was a
// one-off.
std::vector<SlowRead> judge_slow_reads(BenchmarkContext& ctx, const FaultLog& log, double threshold_ms, bool reread);
inline constexpr std::size_t max_slow_rereads = 1000;

// The requests of a scan in order from `begin` to `size`, until `stop`
// is set (a failed read, or too many of them).
class StoppableSource final : public RequestSource {
public:
    StoppableSource(std::uint64_t begin, std::uint64_t size, std::uint32_t block, const std::atomic<bool>& stop)
        : inner_(begin, size, block, false), stop_(stop) {}
    bool next(IoRequest& request) override { return !stop_.load(std::memory_order_relaxed) && inner_.next(request); }

private:
    SequentialSource inner_;
    const std::atomic<bool>& stop_;
};

// What a scan found as series, declared only when they get points (a
// healthy disk's result has none): "bad" (x: offset, y: length in bytes)
// with "bad_errno" (x: the same offset, y: the errno), and "slow" (x:
// offset, y: ms) with "slow_again" (the re-reads).
void add_bad_series(BenchmarkContext& ctx, const std::vector<BadRange>& bad);
void add_slow_series(BenchmarkContext& ctx, const std::vector<SlowRead>& slow);

// The drive rotates (queue/rotational of the disk under the target; false
// for regular files and when unknown).
bool target_rotates(const Target& target);

// What the scans of a whole target (surface, burn-in) take from their
// parameters max_bad_ranges, max_bad_percent, reread_limit and slow_ms: the
// limits over the target, with the slow-read floor (slow_ms when given,
// else 20 ms on a rotating disk and 5 ms otherwise: a read that slow is a
// candidate).
FaultLimits fault_limits(const BenchmarkContext& ctx, bool rotating);

// The slow threshold of a finished scan: slow_ms when given, else ten
// times the scan's median read and at least the floor of fault_limits().
double slow_threshold_ms(const BenchmarkContext& ctx, const LatencyHistogram& latency, bool rotating);

} // namespace diskbench::engine::benchmarks
