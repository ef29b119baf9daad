// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The trend of one figure over a device's or folder's history, as the
// app's History page draws it.

#include "results/device_history.hpp"
#include "text/headline_text.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace diskbench::client {

// A figure whose trend can be drawn: a kind and one of its headline figures.
struct TrendChoice {
    std::string kind;
    HeadlineFigure figure;
};
// The choices the listed results offer, in the order of their first
// appearance (so the newest result's kind and headline come first); each
// (kind, key) once.
std::vector<TrendChoice> trend_choices(const std::vector<const RecentResult*>& listed);
// "Seek: access time" (the page's title and the figure's label).
std::string trend_choice_label(const TrendChoice& choice);

struct TrendPoint {
    std::int64_t at_us = 0; // when the result was taken
    double value = 0;
    std::string path;
};
// The values of `choice` over time, oldest first: one point per listed
// result of its kind that has the figure.
std::vector<TrendPoint> trend_points(const std::vector<const RecentResult*>& listed, const TrendChoice& choice);

// A trend point's label on the time axis: "22 Nov" (translated format).
std::string trend_date_text(std::int64_t unix_us);
// The labels of a trend's points: the day, and the time too ("22 Nov
// 14:03", with seconds if need be) where a neighbouring point is of the
// same day, so no two neighbours read the same.
std::vector<std::string> trend_labels(const std::vector<TrendPoint>& points);

} // namespace diskbench::client
