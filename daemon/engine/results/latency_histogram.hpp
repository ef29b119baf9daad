// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>

namespace diskbench::engine {

// Log-linear histogram of latencies in nanoseconds (the HdrHistogram layout).
// Values below 256 ns get a bucket each; above that every power-of-two range
// is cut into 128 equal buckets, so a bucket is never wider than 1/128 of its
// lower bound and a percentile read from the bucket midpoint is within 0.4 %
// of the exact value. Memory is fixed (~58 KiB) however many I/Os a run does,
// and histograms from several threads merge by adding counts.
class LatencyHistogram {
public:
    static constexpr unsigned sub_bucket_bits = 7;
    static constexpr std::uint64_t sub_bucket_count = 1ULL << sub_bucket_bits; // 128
    static constexpr std::size_t bucket_count = (64 - sub_bucket_bits) * sub_bucket_count + sub_bucket_count;

    void record(std::uint64_t value_ns) noexcept;
    void merge(const LatencyHistogram& other) noexcept;

    [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
    [[nodiscard]] std::uint64_t min() const noexcept { return count_ ? min_ : 0; }
    [[nodiscard]] std::uint64_t max() const noexcept { return max_; }
    [[nodiscard]] double mean() const noexcept;

    // The value at or below which `fraction` (0..1] of the recorded values
    // lie (nearest-rank definition), estimated from its bucket's midpoint and
    // clamped to the recorded min/max. 0 when the histogram is empty.
    [[nodiscard]] std::uint64_t percentile(double fraction) const noexcept;

    // Exposed for tests of the bucket layout.
    static std::size_t bucket_index(std::uint64_t value) noexcept;
    static std::uint64_t bucket_lower_bound(std::size_t index) noexcept;
    static std::uint64_t bucket_width(std::size_t index) noexcept;

private:
    std::array<std::uint64_t, bucket_count> counts_ {};
    std::uint64_t count_ = 0;
    std::uint64_t min_ = UINT64_MAX;
    std::uint64_t max_ = 0;
    // Sum in long double: 2^64 ns is 584 years, but sums of many long I/Os
    // must not wrap either.
    long double sum_ = 0;
};

} // namespace diskbench::engine
