// SPDX-License-Identifier: GPL-3.0-or-later
#include "pass_spread.hpp"

#include "types/saved_values.hpp"

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/profile.hpp"
#include "contract/kinds/test_keys.hpp"
#include "contract/spread.hpp"

#include <glib.h>

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace per_test_keys = contract::kinds::keys::per_test;
namespace profile_keys = contract::kinds::keys::profile;

std::optional<PassSpread> pass_spread(const std::vector<SavedSeries>& series, const std::string& name,
                                      std::size_t index)
{
    const std::string stem = name + ".pass";
    std::vector<double> values;
    for (const SavedSeries& s : series) {
        if (!s.name.starts_with(stem) || s.name.size() == stem.size()
            || s.name.find_first_not_of("0123456789", stem.size()) != std::string::npos)
            continue;
        for (const SeriesPoint& point : s.points)
            if (static_cast<std::size_t>(point.x) == index)
                values.push_back(point.y);
    }
    if (values.size() < 2)
        return std::nullopt;
    PassSpread spread;
    spread.passes = values.size();
    spread.minimum = *std::min_element(values.begin(), values.end());
    spread.maximum = *std::max_element(values.begin(), values.end());
    spread.cv_percent = contract::sample_cv_percent(values);
    return spread;
}

std::optional<PassSpread> summary_pass_spread(const SavedValueMap& summary, const std::string& test,
                                              const std::string& name)
{
    // The bar series' figure in the summary (engine profile.cpp's keys).
    std::string figure = name == "throughput" ? std::string(profile_keys::throughput_mb_s)
        : name.starts_with("latency_")        ? name + "_us"
                                              : name;
    const std::string key = per_test_keys::test_key(profile_summary_key(test), figure);
    const double minimum = number_of(summary, common_keys::spread_key(key, common_keys::spread_min_suffix), NAN);
    const double maximum = number_of(summary, common_keys::spread_key(key, common_keys::spread_max_suffix), NAN);
    const double cv = number_of(summary, common_keys::spread_key(key, common_keys::spread_cv_percent_suffix), NAN);
    const std::int64_t passes = integer_of(summary, common_keys::passes, 0);
    if (std::isnan(minimum) || std::isnan(maximum) || std::isnan(cv) || passes < 2)
        return std::nullopt;
    return PassSpread { static_cast<std::size_t>(passes), minimum, maximum, cv };
}

} // namespace diskbench::client
