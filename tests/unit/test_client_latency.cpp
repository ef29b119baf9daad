// SPDX-License-Identifier: GPL-3.0-or-later
// The headline figures of device runs: Seek leads with its mean access time,
// every run with percentiles shows p50, p99 and p99.9.
#include "model/benchmark_pages.hpp"
#include "text/latency_text.hpp"
#include "text/progress_text.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace diskbench::client;

namespace {

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// What the daemon's add_latency_summary gives for an SSD's seek run.
SavedValueMap ssd_seek_summary()
{
    return { { "reads", std::int64_t { 1000 } },   { "block_size", std::int64_t { 4096 } },
             { "latency_mean_us", 80.4 },          { "latency_min_us", 41.0 },
             { "latency_max_us", 2900.0 },         { "latency_p50_us", 76.0 },
             { "latency_p90_us", 95.0 },           { "latency_p99_us", 410.0 },
             { "latency_p99_9_us", 2100.0 } };
}

} // namespace

TEST_CASE("seek's headline is the mean access time, in milliseconds, before the percentiles", "[client-model]")
{
    const std::string text = device_summary_text("seek", ssd_seek_summary());
    CHECK(text.starts_with("average access time 0.08 ms"));
    // p50, p99 and p99.9 beside it, in this order.
    const auto p50 = text.find("p50 76 µs");
    const auto p99 = text.find("p99 410 µs");
    const auto p99_9 = text.find("p99.9 2.1 ms");
    REQUIRE(p50 != std::string::npos);
    REQUIRE(p99 != std::string::npos);
    REQUIRE(p99_9 != std::string::npos);
    CHECK(p50 < p99);
    CHECK(p99 < p99_9);

    // A rotating disk's access time keeps two decimals too.
    SavedValueMap hdd = ssd_seek_summary();
    hdd["latency_mean_us"] = 12'345.0;
    CHECK(device_summary_text("seek", hdd).starts_with("average access time 12.35 ms"));
}

TEST_CASE("only seek leads with the access time; a run without a mean has no headline", "[client-model]")
{
    SavedValueMap random = ssd_seek_summary();
    random["throughput_mb_s"] = 350.0;
    const std::string text = device_summary_text("random", random);
    CHECK_FALSE(contains(text, "access time"));
    CHECK(text.starts_with("350"));
    CHECK(contains(text, "p99.9 2.1 ms"));

    SavedValueMap no_mean = ssd_seek_summary();
    no_mean.erase("latency_mean_us");
    CHECK_FALSE(access_time_headline(no_mean));
    CHECK(device_summary_text("seek", no_mean).starts_with("p50 76 µs"));
    // A running seek has no summary yet: nothing to show, nothing made up.
    CHECK(device_summary_text("seek", {}).empty());
}

TEST_CASE("percentiles of a profile test are read under its key; the tooltip lists every figure", "[client-model]")
{
    SavedValueMap summary;
    for (const auto& [key, value] : ssd_seek_summary())
        summary["rnd4k_q1t1." + key] = value;
    const auto parts = percentile_parts(summary, "rnd4k_q1t1.");
    REQUIRE(parts.size() == 3);
    CHECK(parts[2] == "p99.9 2.1 ms");
    CHECK(percentile_parts(summary).empty());

    const std::string tooltip = latency_tooltip_text(ssd_seek_summary());
    CHECK(tooltip == "mean 80 µs\nmin 41 µs\np50 76 µs\np90 95 µs\np99 410 µs\np99.9 2.1 ms\nmax 2.9 ms");
    CHECK(latency_tooltip_text({ { "reads", std::int64_t { 3 } } }).empty());
}

TEST_CASE("the Profiles and Write pages draw p99.9 next to p99", "[client-model]")
{
    for (const char* kind : { "profile", "device-write" }) {
        INFO(kind);
        const BenchmarkPage* page = benchmark_page(kind);
        REQUIRE(page);
        // A view of that series, or one that names it among its series.
        const auto has = [&](const char* series) {
            return std::any_of(page->views.begin(), page->views.end(), [&](const PageView& view) {
                return view.series == series
                    || std::find(view.names.begin(), view.names.end(), series) != view.names.end();
            });
        };
        CHECK(has("latency_p99"));
        CHECK(has("latency_p99_9"));
    }
}
