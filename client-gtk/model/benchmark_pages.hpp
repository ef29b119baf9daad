// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../chart/chart.hpp"
#include "types/result_types.hpp"

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
    // Label every shown series by its name ("write", "read") instead of one
    // label for the run (pages that draw several series of one run).
    bool by_name = false;
    // When not empty: exactly these series (generic views, see generic_view()).
    std::vector<std::string> names;
};

// How a kind is started (ListBenchmarks' target).
enum class PageTarget { Device, DeviceWrite, Directory };
PageTarget page_target_from_name(std::string_view target) noexcept;

struct PageModel;

// A page of the window: one benchmark kind of the daemon.
struct BenchmarkPage {
    std::string kind;        // the daemon's kind, e.g. "sequential"
    std::string title;       // N_() (or the daemon's title): "Seek", "Cont", ...
    std::string icon;        // symbolic icon name
    std::string summary;     // N_() (or the daemon's description): one line under the title
    std::vector<PageView> views; // empty: generic, drawn from the series the job declares
    PageTarget target = PageTarget::Device;
    // What the app knows of the kind (pages/<kind>.cpp); null for a kind
    // it does not know, whose page is generic.
    const PageModel* model = nullptr;

    [[nodiscard]] bool generic() const noexcept { return views.empty(); }
};

// The read pages, always there (shown when the daemon lists the kind).
const std::vector<BenchmarkPage>& benchmark_pages();
// Read pages and the pages of write and folder kinds the client knows
// (each from its page model, pages/<kind>.cpp).
const BenchmarkPage* benchmark_page(const std::string& kind);
// A page for a kind the daemon lists: the tailored one when the client knows
// the kind, else a generic page with the daemon's title and description.
BenchmarkPage page_for_kind(const std::string& kind, std::string_view target, const std::string& title,
                            const std::string& description);

// The view of a generic page for the series a job declared so far: the
// first series' style and units decide the chart; every series of the same
// style and y unit is drawn, labelled by name; "NAME-min"/"NAME-max" become
// the band around the first one.
PageView generic_view(const std::vector<SavedSeries>& series);
// Categories of a chart whose x is a test index (unit "test"): the
// summary's "tests" or "phases" (comma-separated), else "1", "2", ... up
// to the largest index drawn so far.
std::vector<std::string> test_categories(const SavedValueMap& summary, const std::vector<SavedSeries>& series);
ChartSpec chart_spec_for_series(const SavedSeries& first);

// The headline figures of a filesystem or write run from its Summary:
// every key ending in _mb_s (MB/s), _ops_s or _files_s (op/s) or _s
// (seconds), e.g.
// "write 512 MB/s  ·  read 601 MB/s"; X_min_mb_s / X_max_mb_s only when
// there is no X_mb_s.
std::string summary_line(const SavedValueMap& summary);
// A series or figure name as shown: "write" translated; unknown names as they are.
std::string series_display_name(const std::string& name);

// Where each of a result's series goes in a view's chart: for every series
// index, the chart series index, or nullopt when the view does not show it.
struct SeriesRoute {
    std::optional<std::size_t> line; // points go to this chart series
    std::optional<std::size_t> band_min, band_max; // or into its band
    // One pass of a run with passes ("throughput.pass2"): drawn faintly
    // under the median, which has the series' own name.
    bool faint = false;
};
std::vector<SeriesRoute> route_series(const PageView& view, const std::vector<std::string>& series_names);

// The chart series for a view of a finished or running result. `label` names
// a single current series ("This run", or the reference's date); views with
// several series (QD curves) label them by thread count.
std::vector<ChartSeries> chart_series_for(const PageView& view, const std::vector<SavedSeries>& series,
                                          const std::string& label);
std::string series_label(const PageView& view, const std::string& series_name, const std::string& single_label);

// A chart spec completed from a run's facts, as the kind's page model
// says: the x domain of position graphs (0..device size, or the
// sequential run's range) and the profile test names as categories.
ChartSpec spec_for(const PageView& view, const std::string& kind, const SavedValueMap& parameters,
                   const SavedValueMap& summary, std::uint64_t device_size);

} // namespace diskbench::client
