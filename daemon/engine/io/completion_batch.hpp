// SPDX-License-Identifier: GPL-3.0-or-later
// How many completions the io_uring worker waits for at once with a deep
// queue, learnt from how fast completions have been coming.
//
// Waiting for one completion at a time with 32 in flight wakes the worker
// for nearly every I/O it has to wait for once it is faster than the device
// (RND4K Q32T1 on a RAM-backed loop device, AMD EPYC, 2 vCPUs: 0.06-0.07
// context switches per I/O against lean fio's 0.006), and each wake-up
// costs the CPU that completes the requests: 0.86-0.90 of lean fio's IOPS.
// Waiting for a quarter of those in flight gave 0.99-1.07
// (tests/perf/engine_vs_fio.py, 8 rounds each).
//
// A batch stamps its first completions when its last one arrives (the
// worker reads the clock once when the wait returns). With a quarter of the
// queue that is at most a quarter of the mean latency: the worker keeps the
// queue full, so by Little's law the mean latency is in_flight divided by
// the rate whether the worker batches or not, and only the spread of the
// figures around it narrows. Only a fast device batches (kFastGapNs), where
// a wake-up is a real share of an I/O's cost; a disk's milliseconds per I/O
// keep batches of one, so the drive's queue is refilled at each completion
// as before. Capping the batch at what came within a fixed 20 µs, or waiting
// with a 20 µs timeout, gave batches of 4-7 and kept 0.80-0.91 of lean fio.
#pragma once

#include <algorithm>
#include <cstdint>

namespace diskbench::engine::detail {

class CompletionBatch {
public:
    // Batch only while completions come at least this often: 100k per
    // second and more, where a sleep and wake-up (a few µs of CPU) is a
    // third of an I/O's time or more.
    static constexpr std::uint64_t kFastGapNs = 10'000;

    // How many completions to wait for with `in_flight` requests in flight:
    // a quarter of them on a fast device, else 1.
    [[nodiscard]] unsigned wait_count(unsigned in_flight) const noexcept
    {
        if (gap_ns_ == 0 || gap_ns_ > kFastGapNs)
            return 1;
        return std::max(1u, in_flight / 4);
    }

    // `count` completions were reaped at `now_ns` (monotonic).
    void reaped(unsigned count, std::uint64_t now_ns) noexcept
    {
        if (count == 0)
            return;
        if (window_start_ns_ == 0) {
            window_start_ns_ = now_ns;
            return;
        }
        // The rate over windows of kRateWindowNs or more, not reap by reap:
        // the worker waits just when the device is in a lull, and the gap
        // of single reaps overstated the mean gap 2-7 times (measured).
        window_count_ += count;
        const std::uint64_t span = now_ns - window_start_ns_;
        if (span < kRateWindowNs)
            return;
        const std::uint64_t gap = std::max<std::uint64_t>(1, span / window_count_);
        gap_ns_ = gap_ns_ == 0 ? gap : (gap_ns_ * (kWeight - 1) + gap) / kWeight;
        window_start_ns_ = now_ns;
        window_count_ = 0;
    }

    // The recent mean time per completion, ns (0 until a window has passed).
    [[nodiscard]] std::uint64_t gap_ns() const noexcept { return gap_ns_; }

private:
    static constexpr std::uint64_t kRateWindowNs = 100'000;
    static constexpr std::uint64_t kWeight = 4;
    std::uint64_t gap_ns_ = 0;
    std::uint64_t window_start_ns_ = 0;
    std::uint64_t window_count_ = 0;
};

} // namespace diskbench::engine::detail
