// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "series.hpp"

#include "messages.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

// The result file: one finished (or cancelled) job as JSON, written by the
// app ("Save result…", the recent results it keeps) and by the engine CLI,
// read back by the app to show, compare and overlay. Both writers use this
// one writer, so the format has one definition.
namespace diskbench::contract {

using SavedValue = std::variant<bool, std::int64_t, double, std::string>;
using SavedValueMap = std::map<std::string, SavedValue>;

struct SavedSeries {
    std::string name, x_unit, y_unit, style;
    std::vector<SeriesPoint> points;
};

// A finished (or cancelled) job as a file keeps it: everything the daemon's
// Job object said, so a result can be compared and overlaid later.
struct SavedResult {
    std::string kind;
    std::string state;
    std::string backend;
    // What it ran on: "device" (a block device, see device_info) or
    // "directory" (a folder; `target` is the folder as the daemon showed
    // it, Job.Target). Files without them (before 0.2) are device results.
    std::string target_kind = "device";
    std::string target;
    std::int64_t started_at_us = 0;
    std::int64_t finished_at_us = 0;
    SavedValueMap parameters;
    SavedValueMap summary;
    SavedValueMap device_info; // identity, queue facts, kernel (Job.DeviceInfo)
    std::vector<SavedSeries> series;
    std::vector<std::string> warnings;
    std::vector<std::string> notes;
    // The same as catalogue messages (messages.hpp), one per text, so a
    // reopened result is shown translated; empty in files written before
    // API 0.5 (the keys "warning_messages"/"note_messages" are optional).
    std::vector<Message> warning_messages;
    std::vector<Message> note_messages;

    bool operator==(const SavedResult&) const;
    // The folder's name for titles ("Music" for /home/ann/Music); "" for device results.
    [[nodiscard]] std::string folder_name() const;
};

// Version of the file layout. Files of another version are refused with a
// message, never half-read.
inline constexpr std::int64_t result_schema_version = 1;

std::string result_to_json(const SavedResult& result);

struct LoadError {
    enum class Kind { Corrupt, NewerSchema, OlderSchema } kind;
    std::string message; // translated, for a toast
};

std::variant<SavedResult, LoadError> result_from_json(std::string_view text);

} // namespace diskbench::contract
