// SPDX-License-Identifier: GPL-3.0-or-later
#include "contract/kinds/common_keys.hpp"
#include "speed_drop.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace diskbench::service {

namespace common_keys = contract::kinds::keys::common;

namespace {

double median_of(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

double median_of_points(const std::vector<engine::SeriesPoint>& points, std::size_t from, std::size_t to)
{
    std::vector<double> speeds;
    for (std::size_t i = from; i < to && i < points.size(); ++i)
        speeds.push_back(points[i].y);
    return median_of(std::move(speeds));
}

// The hottest reading within a tenth of the run of `progress` (readings
// come once a second, so in a short run the nearest may be that far), else
// the nearest one.
double celsius_near(const std::vector<HeatSample>& heat, double progress)
{
    double hottest = -1;
    const HeatSample* nearest = nullptr;
    for (const HeatSample& sample : heat) {
        if (std::fabs(sample.progress - progress) <= 0.1)
            hottest = std::max(hottest, sample.celsius);
        if (!nearest || std::fabs(sample.progress - progress) < std::fabs(nearest->progress - progress))
            nearest = &sample;
    }
    return hottest >= 0 ? hottest : nearest ? nearest->celsius : 0;
}

} // namespace

SpeedDrop find_speed_drop(const std::vector<engine::SeriesPoint>& points, const std::vector<HeatSample>& heat,
                          double warning_c)
{
    SpeedDrop drop;
    if (points.size() < 6 || heat.empty())
        return drop;
    // The split of the series into a before and an after with the largest
    // fall between their medians: one step, found by the whole series, not
    // by the first slow point (a busy machine makes single slow windows).
    std::size_t split = 0;
    double fall = 0;
    for (std::size_t k = 3; k + 3 <= points.size(); ++k) {
        const double before = median_of_points(points, 0, k);
        const double after = median_of_points(points, k, points.size());
        if (before > 0 && 1 - after / before > fall) {
            fall = 1 - after / before;
            split = k;
        }
    }
    if (fall * 100 < judged_drop_percent)
        return drop;
    const double first_x = points.front().x;
    const double span = points.back().x - first_x;
    drop.found = true;
    drop.percent = fall * 100;
    drop.progress = span > 0 ? (points[split].x - first_x) / span : 0;
    drop.celsius = celsius_near(heat, drop.progress);
    drop.hot = drop.celsius >= (warning_c > 0 ? warning_c : assumed_warning_c);
    return drop;
}

void judge_speed_drop(engine::Result& result, const std::vector<HeatSample>& heat, double warning_c)
{
    const engine::Series* throughput = nullptr;
    for (const engine::Series& series : result.series) {
        if (series.info.name.find(".pass") != std::string::npos)
            return;
        if (series.info.name == "throughput" && series.info.style == engine::SeriesStyle::Line)
            throughput = &series;
    }
    if (!throughput)
        return;
    const SpeedDrop drop = find_speed_drop(throughput->points, heat, warning_c);
    if (!drop.found)
        return;
    const bool writes_cache = result.kind == "sustained-write";
    // The catalogue has each message with and without the drive's own threshold.
    const std::string assumed = warning_c > 0 ? "" : "-assumed";
    const double threshold = warning_c > 0 ? warning_c : assumed_warning_c;
    const auto message = [&](std::string id) {
        return contract::Message { std::move(id) + assumed,
                                   { { "percent", drop.percent }, { "celsius", drop.celsius }, { "threshold", threshold } } };
    };
    engine::value_at(result.summary, common_keys::speed_drop_percent) = drop.percent;
    engine::value_at(result.summary, common_keys::speed_drop_c) = drop.celsius;
    if (drop.hot) {
        engine::value_at(result.summary, common_keys::speed_drop_cause) = std::string("thermal-throttling");
        engine::add_warning(result, message("speed-drop-throttling"));
    } else if (writes_cache) {
        engine::value_at(result.summary, common_keys::speed_drop_cause) = std::string("cache");
        engine::add_note(result, message("speed-drop-cache"));
    } else {
        engine::value_at(result.summary, common_keys::speed_drop_cause) = std::string("not-heat");
        engine::add_note(result, message("speed-drop-not-heat"));
    }
}

} // namespace diskbench::service
