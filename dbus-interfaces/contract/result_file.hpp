// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "series.hpp"

#include "messages.hpp"

#include <cstddef>
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
    // A set of runs kept as one session (kind kinds::run_set, "run-set"):
    // each run one after another on one device, whole, in the order they
    // ran. Empty for every other result; a member has none of its own.
    // Optional in the file ("members"), so the schema stays 1.
    std::vector<SavedResult> members;

    bool operator==(const SavedResult&) const;
    // The folder's name for titles ("Music" for /home/ann/Music); "" for device results.
    [[nodiscard]] std::string folder_name() const;
};

// Version of the file layout. Files of another version are refused with a
// message, never half-read.
inline constexpr std::int64_t result_schema_version = 1;

std::string result_to_json(const SavedResult& result);

struct LoadError {
    // Unreadable: the file could not be read (missing, not a regular file,
    // too large to be a result).
    enum class Kind { Corrupt, NewerSchema, OlderSchema, Unreadable } kind;
    std::string message; // translated, for a toast
};

// What a result file may be at most, checked before json-glib sees it: a
// result file is anyone's file (downloaded, shared, planted in the results
// folder), and json-glib's parser recurses once per nesting level, so a
// valid file of 200,000 nested arrays overflowed the stack. The largest
// result the daemon can give (1.9 million points, about 160 MB written
// out) and the deepest (5 levels: series, points, a point) stay far below.
inline constexpr std::size_t max_result_file_bytes = 256 * 1024 * 1024;
inline constexpr std::size_t max_result_nesting = 64;

// Refuses text longer or more deeply nested than the limits above, then
// reads it.
std::variant<SavedResult, LoadError> result_from_json(std::string_view text);
// Reads the file at `path`: a regular file only (a FIFO would block the
// reader) and no more than max_result_file_bytes of it, then
// result_from_json(). Every reader of result files (the app, diskbenchctl,
// the recent results both keep) goes through here. The error's message
// does not name the file: the caller says which one it read.
std::variant<SavedResult, LoadError> result_from_file(const std::string& path);

} // namespace diskbench::contract
