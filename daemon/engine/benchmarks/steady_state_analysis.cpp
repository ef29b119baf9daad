// SPDX-License-Identifier: GPL-3.0-or-later
#include "steady_state_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace diskbench::engine::benchmarks {

namespace {

double mean(std::span<const double> values)
{
    return values.empty() ? 0.0 : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// Least-squares slope of the values against their index.
double slope(std::span<const double> values)
{
    const auto n = static_cast<double>(values.size());
    const double x_mean = (n - 1) / 2;
    const double y_mean = mean(values);
    double covariance = 0;
    double variance = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const double dx = static_cast<double>(i) - x_mean;
        covariance += dx * (values[i] - y_mean);
        variance += dx * dx;
    }
    return variance > 0 ? covariance / variance : 0.0;
}

} // namespace

SteadyWindow measure_window(std::span<const double> values, const SteadyStateCriteria& criteria)
{
    SteadyWindow window;
    if (criteria.windows < 2 || values.size() < criteria.windows)
        return window;
    const auto tail = values.last(criteria.windows);
    window.measured = true;
    window.mean = mean(tail);
    if (window.mean <= 0)
        return window;
    const auto [lowest, highest] = std::minmax_element(tail.begin(), tail.end());
    window.excursion = (*highest - *lowest) / window.mean;
    window.slope = std::abs(slope(tail)) * static_cast<double>(criteria.windows - 1) / window.mean;
    // Every value within ±tolerance of the mean, as the sustained write has
    // always judged it (within SNIA's 20 % excursion when tolerance is 10 %).
    const bool within = std::all_of(tail.begin(), tail.end(), [&](double value) {
        return std::abs(value - window.mean) <= criteria.tolerance * window.mean;
    });
    window.steady = within && window.slope <= criteria.max_slope;
    return window;
}

bool is_steady(std::span<const double> values, const SteadyStateCriteria& criteria)
{
    return measure_window(values, criteria).steady;
}

SustainedAnalysis analyse_sustained(std::span<const ThroughputWindow> series, const SteadyStateCriteria& criteria)
{
    SustainedAnalysis analysis;
    if (series.empty())
        return analysis;
    std::vector<double> rates;
    rates.reserve(series.size());
    for (const auto& window : series)
        rates.push_back(window.mb_s);

    const std::size_t span = std::max<std::size_t>(1, std::min(criteria.windows, rates.size()));
    const std::span<const double> all(rates);
    analysis.steady_mb_s = mean(all.last(span));
    analysis.steady_state = is_steady(all, criteria);
    const double burst_level = median(std::vector<double>(rates.begin(), rates.begin() + static_cast<long>(span)));
    analysis.burst_mb_s = burst_level;

    if (analysis.steady_mb_s > (1 - criteria.cliff_drop) * burst_level)
        return analysis;
    const double midpoint = (burst_level + analysis.steady_mb_s) / 2;
    const auto below = std::find_if(rates.begin(), rates.end(), [&](double rate) { return rate < midpoint; });
    const auto index = static_cast<std::size_t>(below - rates.begin());
    if (index == 0 || index == rates.size())
        return analysis; // slow from the first window: nothing to fall from
    // A cliff stays down: a series swinging across the midpoint has none.
    const auto after = static_cast<double>(rates.size() - index);
    const auto down = static_cast<double>(std::count_if(below, rates.end(), [&](double rate) { return rate < midpoint; }));
    if (down < criteria.stays_down * after)
        return analysis;
    analysis.cliff = true;
    analysis.cliff_window = index;
    analysis.cliff_at_bytes = series[index].bytes_before;
    analysis.cliff_at_s = series[index - 1].end_s;
    analysis.burst_mb_s = mean(all.first(index));
    return analysis;
}

} // namespace diskbench::engine::benchmarks
