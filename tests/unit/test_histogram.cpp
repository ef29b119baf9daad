// SPDX-License-Identifier: GPL-3.0-or-later
#include "base/prng.hpp"
#include "results/latency_histogram.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

using diskbench::engine::LatencyHistogram;
using diskbench::engine::Xoshiro256StarStar;

namespace {

// Nearest-rank percentile of sorted values: the definition the histogram
// promises to approximate.
std::uint64_t exact_percentile(const std::vector<std::uint64_t>& sorted, double fraction)
{
    auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

void check_against_exact(std::vector<std::uint64_t> values)
{
    LatencyHistogram histogram;
    for (auto v : values)
        histogram.record(v);
    std::sort(values.begin(), values.end());
    for (double fraction : { 0.5, 0.9, 0.99, 0.999, 1.0 }) {
        const auto exact = static_cast<double>(exact_percentile(values, fraction));
        const auto estimate = static_cast<double>(histogram.percentile(fraction));
        INFO("percentile " << fraction << ": exact " << exact << ", histogram " << estimate);
        CHECK(std::abs(estimate - exact) <= exact * 0.01 + 0.5);
    }
    CHECK(histogram.min() == values.front());
    CHECK(histogram.max() == values.back());
    CHECK(histogram.count() == values.size());
}

} // namespace

TEST_CASE("histogram percentiles are within 1% of exact sorted values", "[histogram]")
{
    Xoshiro256StarStar rng(99);
    SECTION("uniform 50 us .. 10 ms")
    {
        std::vector<std::uint64_t> values;
        for (int i = 0; i < 200000; ++i)
            values.push_back(50'000 + rng.below(9'950'000));
        check_against_exact(values);
    }
    SECTION("log-uniform 100 ns .. 10 s, like mixed cache hits and HDD seeks")
    {
        std::vector<std::uint64_t> values;
        for (int i = 0; i < 200000; ++i) {
            const double u = static_cast<double>(rng.below(1'000'000)) / 1e6;
            values.push_back(static_cast<std::uint64_t>(100.0 * std::pow(1e8, u)));
        }
        check_against_exact(values);
    }
    SECTION("bimodal with a thin slow tail")
    {
        std::vector<std::uint64_t> values;
        for (int i = 0; i < 100000; ++i)
            values.push_back(i % 1000 == 0 ? 40'000'000 + rng.below(1'000'000) : 80'000 + rng.below(5'000));
        check_against_exact(values);
    }
    SECTION("small exact values")
    {
        std::vector<std::uint64_t> values;
        for (std::uint64_t v = 0; v < 256; ++v)
            values.push_back(v);
        LatencyHistogram histogram;
        for (auto v : values)
            histogram.record(v);
        CHECK(histogram.percentile(0.5) == 127);
        CHECK(histogram.percentile(1.0) == 255);
    }
}

TEST_CASE("histogram buckets tile the value range without gaps", "[histogram]")
{
    std::uint64_t expected_lower = 0;
    for (std::size_t i = 0; i < LatencyHistogram::bucket_count; ++i) {
        REQUIRE(LatencyHistogram::bucket_lower_bound(i) == expected_lower);
        REQUIRE(LatencyHistogram::bucket_index(expected_lower) == i);
        const std::uint64_t width = LatencyHistogram::bucket_width(i);
        REQUIRE(LatencyHistogram::bucket_index(expected_lower + width - 1) == i);
        // Never wider than 1/128 of the values it holds.
        REQUIRE(width * 128 <= std::max<std::uint64_t>(expected_lower, 128));
        expected_lower += width;
        if (expected_lower == 0)
            break; // wrapped past UINT64_MAX: the last bucket ends there
    }
    CHECK(LatencyHistogram::bucket_index(UINT64_MAX) == LatencyHistogram::bucket_count - 1);
}

TEST_CASE("merged histograms equal one histogram of all values", "[histogram]")
{
    Xoshiro256StarStar rng(5);
    LatencyHistogram all;
    LatencyHistogram parts[4];
    for (int i = 0; i < 40000; ++i) {
        const std::uint64_t v = 1000 + rng.below(1'000'000);
        all.record(v);
        parts[i % 4].record(v);
    }
    LatencyHistogram merged;
    for (const auto& part : parts)
        merged.merge(part);
    CHECK(merged.count() == all.count());
    CHECK(merged.min() == all.min());
    CHECK(merged.max() == all.max());
    CHECK(merged.mean() == Approx(all.mean()));
    for (double f : { 0.5, 0.9, 0.99, 0.999 })
        CHECK(merged.percentile(f) == all.percentile(f));
}

TEST_CASE("an empty histogram reports zeros", "[histogram]")
{
    LatencyHistogram empty;
    CHECK(empty.count() == 0);
    CHECK(empty.percentile(0.99) == 0);
    CHECK(empty.min() == 0);
    CHECK(empty.max() == 0);
    CHECK(empty.mean() == 0.0);
}
