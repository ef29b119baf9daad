// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace diskbench::client {

// Results the app keeps for the user, so "this disk, last time" can be the
// reference: one JSON file per finished run in
// $XDG_DATA_HOME/diskbench/results (~/.local/share/diskbench/results).
struct RecentResult {
    std::string path;
    SavedResult result;
};

class RecentResults {
public:
    // `directory` empty: the XDG default.
    explicit RecentResults(std::string directory = {});

    [[nodiscard]] const std::string& directory() const noexcept { return directory_; }

    // Writes the result as a new file; returns its path, or "" and a message.
    std::string add(const SavedResult& result, std::string& error);

    // Writes a kept result again (a set that grows run by run: each run
    // is in its file as soon as it ends). Only a file this list holds.
    // Returns "" or a message.
    std::string update(const std::string& path, const SavedResult& result);

    // Deletes a kept result (the History page's Delete): only a file this
    // list holds, so a stale or foreign path removes nothing. Its text goes
    // to `contents` for restore(). Returns "" or a message.
    std::string remove(const std::string& path, std::string& contents);
    // Writes a removed result back under its old name (Undo).
    std::string restore(const std::string& path, const std::string& contents);

    // Reads the directory (newest first). Files that do not load are
    // skipped, each with one warning.
    void reload();
    // reload() only when the directory changed since (its mtime): opening
    // the reference picker should not parse every file again.
    void reload_if_changed();
    [[nodiscard]] const std::vector<RecentResult>& results() const noexcept { return results_; }

    // Results of `kind`, those of the same disk first (by serial, WWN or
    // model+size, else node), then newest first. The runs of kept sets
    // (run_set.hpp) are among them, each with its set's path.
    [[nodiscard]] std::vector<const RecentResult*> for_kind(const std::string& kind, const SavedValueMap& device_info) const;

private:
    void index_set_runs();

    std::string directory_;
    std::vector<RecentResult> results_;
    std::vector<RecentResult> set_runs_; // the members of the sets in results_
    std::int64_t loaded_mtime_ns_ = -1;
    std::set<std::string> warned_; // files reload() skipped and said so
};

// The same physical disk? Serial or WWN when known, else model and size,
// else the node (loop devices).
bool same_device(const SavedValueMap& a, const SavedValueMap& b);

// File name for a result: 2026-11-22T10-15-03-seek-sda.json
std::string result_file_name(const SavedResult& result);

// Writes `text` to `path` through a temporary file and rename, so a crash
// never leaves half a file. Returns "" or a translated message.
std::string write_file_atomically(const std::string& path, const std::string& text);

} // namespace diskbench::client
