// SPDX-License-Identifier: GPL-3.0-or-later
#include "temperature_overlay.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace diskbench::client {

namespace {

constexpr std::string_view temperature_series = "temperature";

} // namespace

std::vector<OverlaySource> overlay_sources(const std::vector<SavedSeries>& series)
{
    std::vector<OverlaySource> sources;
    sources.reserve(series.size());
    for (const SavedSeries& s : series)
        sources.push_back({ s.name, s.x_unit, s.y_unit, s.points });
    return sources;
}

std::vector<SeriesPoint> temperature_at_positions(std::span<const SeriesPoint> temperature,
                                                  std::span<const SeriesPoint> throughput)
{
    std::vector<SeriesPoint> out;
    if (throughput.size() < 2)
        return out;
    // (seconds, position) at the start of every stretch, and the end of the last.
    std::vector<SeriesPoint> elapsed;
    elapsed.reserve(throughput.size() + 1);
    double seconds = 0;
    elapsed.push_back({ seconds, throughput[0].x });
    for (std::size_t i = 0; i < throughput.size(); ++i) {
        const SeriesPoint& point = throughput[i];
        const double end = i + 1 < throughput.size() ? throughput[i + 1].x : point.x + (point.x - throughput[i - 1].x);
        const double bytes = end - point.x;
        if (!(bytes > 0) || !(point.y > 0))
            return {}; // not one pass in order at a measured speed: no single time per place
        seconds += bytes / (point.y * 1e6);
        elapsed.push_back({ seconds, end });
    }
    for (const SeriesPoint& reading : temperature) {
        const auto after = std::lower_bound(elapsed.begin(), elapsed.end(), reading.x,
                                            [](const SeriesPoint& e, double t) { return e.x < t; });
        if (after == elapsed.end())
            break;
        if (after == elapsed.begin()) {
            out.push_back({ after->y, reading.y });
            continue;
        }
        const SeriesPoint& before = *(after - 1);
        const double share = (reading.x - before.x) / (after->x - before.x);
        out.push_back({ before.y + share * (after->y - before.y), reading.y });
    }
    return out;
}

std::optional<ChartSeries> temperature_overlay(const PageView& view, std::span<const OverlaySource> series)
{
    if (view.spec.style != ChartStyle::Line || view.spec.x_scale != AxisScale::Linear)
        return std::nullopt;
    const auto temperature = std::find_if(series.begin(), series.end(), [](const OverlaySource& s) {
        return s.name == temperature_series && s.y_unit == "°C" && s.x_unit == "s";
    });
    if (temperature == series.end() || temperature->points.empty())
        return std::nullopt;

    std::vector<std::string> names;
    for (const OverlaySource& s : series)
        names.emplace_back(s.name);
    const std::vector<SeriesRoute> routes = route_series(view, names);
    const OverlaySource* line = nullptr;
    std::size_t lines = 0;
    for (std::size_t i = 0; i < routes.size(); ++i)
        if (routes[i].line && series[i].name != temperature_series) {
            ++lines;
            if (*routes[i].line == 0)
                line = &series[i];
        }
    if (!line)
        return std::nullopt;

    ChartSeries overlay;
    /* TRANSLATORS: legend entry of the drive's temperature drawn over a graph */
    overlay.label = _("Temperature");
    if (line->x_unit == "s")
        overlay.points.assign(temperature->points.begin(), temperature->points.end());
    else if (line->x_unit == "B" && line->y_unit == "MB/s" && lines == 1)
        overlay.points = temperature_at_positions(temperature->points, line->points);
    if (overlay.points.empty())
        return std::nullopt;
    return overlay;
}

} // namespace diskbench::client
