// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::contract {

// One measured point of a series: x in the series' x unit (bytes, seconds,
// a queue depth, a test's index), y in its y unit. Job.GetSampleRange,
// Job.Samples and result files all carry these.
struct SeriesPoint {
    double x = 0;
    double y = 0;
    bool operator==(const SeriesPoint&) const = default;
};

// One (name, x unit, y unit, style) entry of Job.Series. Style is "line",
// "bar" or "scatter".
struct SeriesDeclaration {
    std::string name, x_unit, y_unit, style;
    bool operator==(const SeriesDeclaration&) const = default;
};

// A sample as the bus carries it: (series index, x, y), the a(udd) of
// Job.GetSampleRange and Job.Samples.
struct IndexedSample {
    std::uint32_t series = 0;
    double x = 0, y = 0;
};

// Since API 0.5 a series "NAME.partial" carries partial points of series
// NAME (the running value of a surface map's bucket still being read): each
// replaces the previous partial point at the same x, and NAME's point at that
// x replaces them for good (see Job.Series in the XML).
inline constexpr std::string_view partial_series_suffix = ".partial";

[[nodiscard]] inline bool is_partial_series(std::string_view name) noexcept
{
    return name.size() > partial_series_suffix.size() && name.ends_with(partial_series_suffix);
}

// "mean" for "mean.partial"; the name itself for a final series.
[[nodiscard]] inline std::string_view final_series_name(std::string_view name) noexcept
{
    return is_partial_series(name) ? name.substr(0, name.size() - partial_series_suffix.size()) : name;
}

// Since API 0.11 a series "cdf" or "cdf-WHAT" is a latency distribution
// (x: latency in us, y: percent of the requests at or below it) from the
// engine's latency histogram, at fixed quantiles: of the whole run (seek),
// of one block size ("cdf-4096"), of one profile test ("cdf-seq1m_q8t1"),
// of one direction of a folder test ("cdf-rnd4k_q1t1-write").
inline constexpr std::string_view latency_cdf_prefix = "cdf";

[[nodiscard]] inline bool is_latency_cdf(std::string_view name) noexcept
{
    return name == latency_cdf_prefix
        || (name.size() > latency_cdf_prefix.size() + 1 && name.starts_with(latency_cdf_prefix)
            && name[latency_cdf_prefix.size()] == '-');
}

} // namespace diskbench::contract
