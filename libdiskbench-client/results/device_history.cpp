// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/device_history.hpp"

#include "types/saved_values.hpp"

#include <algorithm>

namespace diskbench::client {

std::int64_t taken_at_us(const SavedResult& result)
{
    return result.finished_at_us ? result.finished_at_us : result.started_at_us;
}

HistorySubject subject_for_path(const std::vector<RecentResult>& results, const std::string& path)
{
    HistorySubject subject;
    const RecentResult* newest = nullptr;
    for (const RecentResult& entry : results) {
        if (entry.result.target_kind == "directory") {
            if (entry.result.target == path)
                subject.folder = path;
            continue;
        }
        if (text_of(entry.result.device_info, "node") == path
            && (!newest || taken_at_us(entry.result) > taken_at_us(newest->result)))
            newest = &entry;
    }
    if (newest && subject.folder.empty())
        subject.device_info = newest->result.device_info;
    return subject;
}

bool belongs_to(const SavedResult& result, const HistorySubject& subject)
{
    if (result.target_kind == "directory")
        return !subject.folder.empty() && result.target == subject.folder;
    // An empty identity (nothing selected, an unknown node) matches nothing.
    return !subject.device_info.empty() && subject.folder.empty() && same_device(result.device_info, subject.device_info);
}

std::vector<const RecentResult*> history_of(const std::vector<RecentResult>& results, const HistorySubject& subject)
{
    std::vector<const RecentResult*> listed;
    for (const RecentResult& entry : results)
        if (belongs_to(entry.result, subject))
            listed.push_back(&entry);
    std::stable_sort(listed.begin(), listed.end(), [](const RecentResult* a, const RecentResult* b) {
        return taken_at_us(a->result) > taken_at_us(b->result);
    });
    return listed;
}

} // namespace diskbench::client
