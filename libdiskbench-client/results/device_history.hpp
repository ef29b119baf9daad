// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/recent_results.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace diskbench::client {

// The kept results of one disk or folder, as the app's History page and
// `diskbenchctl history DEVICE` list them. (Their headline figures are
// text/headline_text, the app's trend client-gtk/model/history_trend.)

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

// When a result was taken (finished, else started), microseconds since the epoch.
std::int64_t taken_at_us(const SavedResult& result);

} // namespace diskbench::client
