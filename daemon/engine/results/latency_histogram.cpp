// SPDX-License-Identifier: GPL-3.0-or-later
#include "latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace diskbench::engine {

std::size_t LatencyHistogram::bucket_index(std::uint64_t value) noexcept
{
    if (value < 2 * sub_bucket_count)
        return static_cast<std::size_t>(value);
    const unsigned msb = 63U - static_cast<unsigned>(std::countl_zero(value));
    const unsigned shift = msb - sub_bucket_bits; // >= 1 here
    // value >> shift lies in [sub_bucket_count, 2 * sub_bucket_count).
    return static_cast<std::size_t>(shift) * sub_bucket_count + static_cast<std::size_t>(value >> shift);
}

std::uint64_t LatencyHistogram::bucket_lower_bound(std::size_t index) noexcept
{
    if (index < 2 * sub_bucket_count)
        return index;
    const std::size_t shift = index / sub_bucket_count - 1;
    const std::uint64_t mantissa = index % sub_bucket_count + sub_bucket_count;
    return mantissa << shift;
}

std::uint64_t LatencyHistogram::bucket_width(std::size_t index) noexcept
{
    if (index < 2 * sub_bucket_count)
        return 1;
    return 1ULL << (index / sub_bucket_count - 1);
}

void LatencyHistogram::record(std::uint64_t value_ns) noexcept
{
    ++counts_[bucket_index(value_ns)];
    ++count_;
    min_ = std::min(min_, value_ns);
    max_ = std::max(max_, value_ns);
    sum_ += static_cast<long double>(value_ns);
}

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept
{
    for (std::size_t i = 0; i < bucket_count; ++i)
        counts_[i] += other.counts_[i];
    count_ += other.count_;
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
    sum_ += other.sum_;
}

double LatencyHistogram::mean() const noexcept
{
    return count_ ? static_cast<double>(sum_ / static_cast<long double>(count_)) : 0.0;
}

std::uint64_t LatencyHistogram::percentile(double fraction) const noexcept
{
    if (count_ == 0)
        return 0;
    fraction = std::clamp(fraction, 0.0, 1.0);
    // Nearest rank: the smallest value with at least ceil(fraction * n) values at or below it.
    auto rank = static_cast<std::uint64_t>(std::ceil(fraction * static_cast<double>(count_)));
    rank = std::clamp<std::uint64_t>(rank, 1, count_);
    std::uint64_t seen = 0;
    for (std::size_t i = 0; i < bucket_count; ++i) {
        seen += counts_[i];
        if (seen >= rank) {
            const std::uint64_t midpoint = bucket_lower_bound(i) + (bucket_width(i) - 1) / 2;
            return std::clamp(midpoint, min_, max_);
        }
    }
    return max_;
}

} // namespace diskbench::engine
