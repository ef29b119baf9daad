// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_views.hpp"

#include "contract/series.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

ChartSpec chart_spec(ChartStyle style, AxisScale scale, Unit x, Unit y)
{
    ChartSpec s;
    s.style = style;
    s.x_scale = scale;
    s.x_unit = x;
    s.y_unit = y;
    return s;
}

PageView page_view(const char* label, ChartSpec chart, std::string series, bool prefix, std::string band_min,
                   std::string band_max)
{
    return { label, std::move(chart), std::move(series), prefix, std::move(band_min), std::move(band_max), false, {} };
}

PageView by_name(PageView view)
{
    view.by_name = true;
    return view;
}

PageView read_and_write(PageView view)
{
    view.names = { "read", "write" };
    return view;
}

// A line per test, block size or direction, latency on a log axis, the
// share of requests at or below it up the side; the legend names
// p50/p99/p99.9.
PageView latency_cdf_view()
{
    // TRANSLATORS: the view of a page that draws the latency distribution (cumulative distribution function)
    PageView cdf = page_view(N_("CDF"), chart_spec(ChartStyle::Line, AxisScale::Log2, Unit::Microseconds, Unit::Plain),
                             std::string(contract::latency_cdf_prefix), true);
    cdf.by_name = true;
    return cdf;
}

PageView tail_latency_view()
{
    PageView tail = page_view(N_("p99/p99.9"), chart_spec(ChartStyle::Bar, AxisScale::Categories, Unit::Plain,
                                                          Unit::Microseconds), "latency_p99");
    tail.names = { "latency_p99", "latency_p99_9" };
    tail.by_name = true;
    return tail;
}

std::vector<PageView> block_size_views()
{
    using enum ChartStyle;
    using enum AxisScale;
    return { page_view(N_("MB/s"), chart_spec(Bar, Log2, Unit::Bytes, Unit::MegabytesPerSecond), "throughput"),
             page_view(N_("IOPS"), chart_spec(Bar, Log2, Unit::Bytes, Unit::Iops), "iops"), latency_cdf_view() };
}

std::vector<PageView> qd_sweep_views()
{
    using enum ChartStyle;
    using enum AxisScale;
    return { page_view(N_("IOPS"), chart_spec(Line, Log2, Unit::QueueDepth, Unit::Iops), "iops-t", true),
             page_view(N_("p99"), chart_spec(Line, Log2, Unit::QueueDepth, Unit::Microseconds), "p99-t", true) };
}

PageView write_sweep_view()
{
    using enum ChartStyle;
    using enum AxisScale;
    // Labelled by name: the legend says the line is the median ("This run · median").
    return by_name(page_view(N_("MB/s"), chart_spec(Line, Log2, Unit::Bytes, Unit::MegabytesPerSecond),
                             "throughput-median", false, "throughput-min", "throughput-max"));
}

std::optional<std::pair<double, double>> whole_device(const SavedValueMap&, std::uint64_t device_size)
{
    if (device_size == 0)
        return std::nullopt;
    return std::pair { 0.0, static_cast<double>(device_size) };
}

} // namespace diskbench::client
