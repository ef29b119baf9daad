// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_pages.hpp"

#include "saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <charconv>

namespace diskbench::client {

namespace {

ChartSpec spec(ChartStyle style, AxisScale scale, Unit x, Unit y)
{
    ChartSpec s;
    s.style = style;
    s.x_scale = scale;
    s.x_unit = x;
    s.y_unit = y;
    return s;
}

PageView view(const char* label, ChartSpec chart, std::string series, bool prefix = false, std::string band_min = {},
               std::string band_max = {})
{
    return { label, std::move(chart), std::move(series), prefix, std::move(band_min), std::move(band_max) };
}

std::vector<BenchmarkPage> make_pages()
{
    using enum ChartStyle;
    using enum AxisScale;
    return {
        // TRANSLATORS: page titles (the HDDTest benchmarks): Seek = access
        // time, Random = random reads per block size, Cont = continuous
        // (sequential) read, Surface = whole-surface read map, Block = block
        // size sweep, Profiles = CrystalDiskMark-style tests, QD sweep =
        // queue depth sweep. Keep them short: they share one switcher.
        { "seek", N_("Seek"), "find-location-symbolic",
          N_("Access time: single-block reads at random places; distance travelled against latency."),
          { view(N_("Latency"), spec(Scatter, Linear, Unit::Bytes, Unit::Microseconds), "latency") } },
        { "random", N_("Random"), "media-playlist-shuffle-symbolic",
          N_("Random reads of each block size from the logical block to 1 MiB."),
          { view(N_("MB/s"), spec(Bar, Log2, Unit::Bytes, Unit::MegabytesPerSecond), "throughput"),
            view(N_("IOPS"), spec(Bar, Log2, Unit::Bytes, Unit::Iops), "iops") } },
        { "sequential", N_("Cont"), "media-playlist-consecutive-symbolic",
          N_("Continuous read: throughput along a long sequential read."),
          { view(N_("MB/s"), spec(Line, Linear, Unit::Bytes, Unit::MegabytesPerSecond), "throughput") } },
        { "surface", N_("Surface"), "drive-harddisk-symbolic",
          N_("Whole-surface read map: every block read once; mean with the slowest and fastest read per stretch."),
          { view(N_("MB/s"), spec(Line, Linear, Unit::Bytes, Unit::MegabytesPerSecond), "mean", false, "min", "max") } },
        { "block", N_("Block"), "view-grid-symbolic",
          N_("Sequential reads with block sizes from the logical block to 1 MiB: where the device gets fast."),
          { view(N_("MB/s"), spec(Bar, Log2, Unit::Bytes, Unit::MegabytesPerSecond), "throughput"),
            view(N_("IOPS"), spec(Bar, Log2, Unit::Bytes, Unit::Iops), "iops") } },
        { "profile", N_("Profiles"), "power-profile-performance-symbolic",
          N_("CrystalDiskMark-style tests: sequential and random reads at several queue depths."),
          { view(N_("MB/s"), spec(Bar, Categories, Unit::Plain, Unit::MegabytesPerSecond), "throughput"),
            view(N_("IOPS"), spec(Bar, Categories, Unit::Plain, Unit::Iops), "iops"),
            view(N_("p99"), spec(Bar, Categories, Unit::Plain, Unit::Microseconds), "latency_p99") } },
        { "qd-sweep", N_("QD sweep"), "view-continuous-symbolic",
          N_("Random 4 KiB reads at growing queue depths and thread counts: where the device saturates."),
          { view(N_("IOPS"), spec(Line, Log2, Unit::QueueDepth, Unit::Iops), "iops-t", true),
            view(N_("p99"), spec(Line, Log2, Unit::QueueDepth, Unit::Microseconds), "p99-t", true) } },
    };
}

bool shows(const PageView& view, const std::string& name)
{
    return view.prefix ? name.starts_with(view.series) : name == view.series;
}

} // namespace

const std::vector<BenchmarkPage>& benchmark_pages()
{
    static const std::vector<BenchmarkPage> pages = make_pages();
    return pages;
}

const BenchmarkPage* benchmark_page(const std::string& kind)
{
    for (const BenchmarkPage& page : benchmark_pages())
        if (page.kind == kind)
            return &page;
    return nullptr;
}

std::vector<SeriesRoute> route_series(const PageView& view, const std::vector<std::string>& series_names)
{
    std::vector<SeriesRoute> routes(series_names.size());
    std::size_t next_line = 0;
    for (std::size_t i = 0; i < series_names.size(); ++i)
        if (shows(view, series_names[i]))
            routes[i].line = next_line++;
    for (std::size_t i = 0; i < series_names.size(); ++i) {
        if (!view.band_min.empty() && series_names[i] == view.band_min)
            routes[i].band_min = 0;
        if (!view.band_max.empty() && series_names[i] == view.band_max)
            routes[i].band_max = 0;
    }
    return routes;
}

std::string series_label(const PageView& view, const std::string& series_name, const std::string& single_label)
{
    if (!view.prefix)
        return single_label;
    // "iops-t4" -> "4 threads"
    int threads = 0;
    const std::string_view digits = std::string_view(series_name).substr(view.series.size());
    std::from_chars(digits.data(), digits.data() + digits.size(), threads);
    gchar* text = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%d thread", "%d threads", static_cast<gulong>(threads)), threads);
    std::string label = text;
    g_free(text);
    if (single_label.empty())
        return label;
    return single_label + " · " + label;
}

std::vector<ChartSeries> chart_series_for(const PageView& view, const std::vector<SavedSeries>& series,
                                          const std::string& label)
{
    std::vector<std::string> names;
    for (const SavedSeries& s : series)
        names.push_back(s.name);
    const std::vector<SeriesRoute> routes = route_series(view, names);
    std::vector<ChartSeries> chart;
    for (std::size_t i = 0; i < series.size(); ++i) {
        const SeriesRoute& route = routes[i];
        if (route.line) {
            if (chart.size() <= *route.line)
                chart.resize(*route.line + 1);
            chart[*route.line].label = series_label(view, series[i].name, label);
            chart[*route.line].points = series[i].points;
        }
    }
    for (std::size_t i = 0; i < series.size(); ++i) {
        const SeriesRoute& route = routes[i];
        if (route.band_min && *route.band_min < chart.size())
            chart[*route.band_min].band_min = series[i].points;
        if (route.band_max && *route.band_max < chart.size())
            chart[*route.band_max].band_max = series[i].points;
    }
    return chart;
}

ChartSpec spec_for(const PageView& view, const std::string& kind, const SavedValueMap& parameters,
                   const SavedValueMap& summary, std::uint64_t device_size)
{
    ChartSpec result = view.spec;
    if (kind == "surface" && device_size > 0) {
        result.x_low = 0;
        result.x_high = static_cast<double>(device_size);
    } else if (kind == "sequential") {
        const std::int64_t offset = integer_of(parameters, "offset", 0);
        std::int64_t end = offset + integer_of(parameters, "size", 0);
        if (device_size > 0)
            end = std::min<std::int64_t>(end, static_cast<std::int64_t>(device_size));
        if (end > offset) {
            result.x_low = static_cast<double>(offset);
            result.x_high = static_cast<double>(end);
        }
    } else if (kind == "seek" && device_size > 0) {
        result.x_low = 0;
        result.x_high = static_cast<double>(device_size);
    } else if (kind == "profile") {
        // The tests the run reported (summary), else those it was asked for.
        const std::string reported = text_of(summary, "tests");
        result.categories = split_profile_tests(reported.empty() ? profile_tests_of(parameters) : reported);
    }
    return result;
}

} // namespace diskbench::client
