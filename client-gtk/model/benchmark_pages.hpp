// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../widgets/chart.hpp"
#include "saved_result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace diskbench::client {

// One way of looking at a benchmark's result: which of its series to draw
// and how. Random reads, for example, can be shown as MB/s or as IOPS.
struct PageView {
    const char* label; // N_() string: translate when shown
    ChartSpec spec;
    // Series whose name equals `series` (or starts with it when `prefix`);
    // with `band_of`, the named series become the band around series 0.
    std::string series;
    bool prefix = false;
    std::string band_min, band_max;
};

// A page of the window: one benchmark kind of the daemon.
struct BenchmarkPage {
    std::string kind;        // the daemon's kind, e.g. "sequential"
    const char* title;       // N_(): "Seek", "Cont", ...
    const char* icon;        // symbolic icon name
    const char* summary;     // N_(): one line under the title
    std::vector<PageView> views;
};

const std::vector<BenchmarkPage>& benchmark_pages();
const BenchmarkPage* benchmark_page(const std::string& kind);

// Where each of a result's series goes in a view's chart: for every series
// index, the chart series index, or nullopt when the view does not show it.
struct SeriesRoute {
    std::optional<std::size_t> line; // points go to this chart series
    std::optional<std::size_t> band_min, band_max; // or into its band
};
std::vector<SeriesRoute> route_series(const PageView& view, const std::vector<std::string>& series_names);

// The chart series for a view of a finished or running result. `label` names
// a single current series ("This run", or the reference's date); views with
// several series (QD curves) label them by thread count.
std::vector<ChartSeries> chart_series_for(const PageView& view, const std::vector<SavedSeries>& series,
                                          const std::string& label);
std::string series_label(const PageView& view, const std::string& series_name, const std::string& single_label);

// A chart spec completed from a run's facts: the x domain of position
// graphs (0..device size, or the sequential run's range) and the profile
// test names as categories.
ChartSpec spec_for(const PageView& view, const std::string& kind, const SavedValueMap& parameters,
                   const SavedValueMap& summary, std::uint64_t device_size);

} // namespace diskbench::client
