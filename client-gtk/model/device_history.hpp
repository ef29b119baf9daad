// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../chart/value_format.hpp"
#include "recent_results.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace diskbench::client {

// The kept results of one disk or folder, as the app's History page and
// `diskbenchctl history DEVICE` list them, and the trend of one figure.

// Whose history: a device by its identity (Job.DeviceInfo's keys, as
// device_info_of() gives them: serial, WWN, model and size, else node), so
// a disk that was sdb last week and is sdc today keeps its history; or a
// folder by its canonical path.
struct HistorySubject {
    SavedValueMap device_info;
    std::string folder;
};

// The subject a path names, for a command line that has no daemon to ask:
// a folder's results by that path; a device node by the identity its newest
// result recorded (so earlier results of the same disk under another node
// come along), or nothing when no result names it.
HistorySubject subject_for_path(const std::vector<RecentResult>& results, const std::string& path);

bool belongs_to(const SavedResult& result, const HistorySubject& subject);

// The results of `subject`, newest first (by when they finished, else started).
std::vector<const RecentResult*> history_of(const std::vector<RecentResult>& results, const HistorySubject& subject);

// A figure a history line shows and a trend can follow.
struct HeadlineFigure {
    std::string key;   // the summary key, e.g. "latency_mean_us"
    std::string label; // translated, e.g. "access time"
    Unit unit = Unit::Plain;
};

// The headline figures of a result of `kind`, at most `limit`, the first
// the one that matters most: Seek's mean access time, qd-sweep's best
// IOPS, a throughput (read, write) for the others, IOPS, the mean latency.
std::vector<HeadlineFigure> headline_figures(const std::string& kind, const SavedValueMap& summary,
                                             std::size_t limit = 2);
// "access time 8.50 ms  ·  p99 21 ms"; "–" without any figure.
std::string headline_text(const std::string& kind, const SavedValueMap& summary, std::size_t limit = 2);

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

// When a result was taken (finished, else started), microseconds since the epoch.
std::int64_t taken_at_us(const SavedResult& result);

} // namespace diskbench::client
