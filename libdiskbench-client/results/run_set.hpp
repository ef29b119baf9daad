// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"
#include "types/result_types.hpp"

#include <string>
#include <string_view>
#include <variant>
#include <vector>

// A set of runs: several read benchmarks one after another on one device,
// with a rest between them, kept as one result file (kind "run-set", its
// runs in SavedResult::members), as HDDTest kept one file per device
// session. The app's "Run a Set" and `diskbenchctl run-set NAME DEVICE`
// both start from plan_run_set() and end in run_set_result(), so a set and
// its file mean the same in both.
//
// The clients run the set, not the daemon: each run is an ordinary job
// (its own authorization, checks and warnings, and busctl can start each
// of them), and the one file is a client's file like every result file.
// See docs/decisions.md, "Sets of runs".
namespace diskbench::client {

// Quick = what GNOME Disks' users want first (overview, then
// CrystalDiskMark's four tests); Full read = every read benchmark that
// finishes in minutes (not the surface map, which reads every byte).
struct RunSetPreset {
    std::string_view name;  // "quick", "full-read": what diskbenchctl takes
    const char* title;      // N_() marked
    std::vector<std::string_view> kinds;
};
const std::vector<RunSetPreset>& run_set_presets();

// The name of the set a user composes and keeps (run_set_custom_kinds()).
inline constexpr std::string_view custom_run_set = "custom";

// The rest between two runs (seconds): a drive's cache and heat settle, as
// CrystalDiskMark's interval lets an SLC cache recover.
inline constexpr unsigned default_run_set_pause_s = 5;
inline constexpr unsigned max_run_set_pause_s = 600;

struct RunSetPlan {
    std::string name;               // a preset's name, "custom", or the list as given
    std::vector<std::string> kinds; // in the order they run
};

// What NAME asks for: a preset, "custom" (CUSTOM, the kept set), or kinds
// separated by commas ("seek,random"). Every kind must be a read benchmark
// the daemon offers on a device (OFFERED, from ListBenchmarks), none twice:
// a set never writes (a write needs its own consent, page by page). The
// plan, or a translated message saying what is wrong.
std::variant<RunSetPlan, std::string> plan_run_set(const std::string& name,
                                                   const std::vector<BenchmarkInfo>& offered,
                                                   const std::vector<std::string>& custom);

// The kinds OFFERED that a set may hold, in the daemon's order.
std::vector<std::string> run_set_candidates(const std::vector<BenchmarkInfo>& offered);

// The custom set kept in $XDG_CONFIG_HOME/diskbench/run-sets.conf (the app
// remembers what was ticked; diskbenchctl run-set custom runs it). Empty
// when none is kept or the file does not read.
std::vector<std::string> run_set_custom_kinds();
// "" or a translated message.
std::string keep_run_set_custom_kinds(const std::vector<std::string>& kinds);

// The session as one result: the runs that ended, in order, as members;
// target, device and times from them; "finished" when every planned run
// finished, else "cancelled" (stopped, or a run failed: the runs before it
// are kept). MEMBERS must not be empty.
SavedResult run_set_result(const RunSetPlan& plan, unsigned pause_s, std::vector<SavedResult> members);

// "Quick set", "Full read set", "Custom set", "Set of seek, random".
std::string run_set_title(const SavedResult& result);
// Each run's title and main figure: "Overview read 512 MB/s  ·  Profiles SEQ1M Q8T1 3.5 GB/s".
std::string run_set_headline(const SavedResult& result);

// What a list of kept results (History, diskbenchctl history) shows of
// any result: a set's runs' figures, else the kind's headline figures.
std::string kept_result_headline(const SavedResult& result);

} // namespace diskbench::client
