// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What an administrator sets for the daemon in a file rather than on its
// command line: /etc/diskbench/diskbenchd.conf, a key file (GLib's
// GKeyFile, the format of systemd's and udisks' own configuration):
//
//   [Limits]
//   MaxJobsPerUser=16
//
// A file, not a property set over the bus: diskbenchd exits when idle, so a
// value set at run time would be gone by the next activation, and a fleet's
// configuration management writes files (a lab of burn-in machines wants
// 16 drives at once; a desktop keeps the default). Options given on the
// command line win over the file.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::service {

inline constexpr const char* default_config_path = "/etc/diskbench/diskbenchd.conf";

struct DaemonConfig {
    std::optional<std::size_t> max_jobs_per_user; // [Limits] MaxJobsPerUser, 1 to 1000
    // What was wrong with the file, a line each ("MaxJobsPerUser=0: not a
    // number from 1 to 1000"): the daemon logs them and keeps its defaults
    // for those keys, so a typo does not stop every user's benchmarks.
    std::vector<std::string> problems;
};

// The file at PATH; a missing file is an empty configuration (the default
// install has none), an unreadable or malformed one a problem.
DaemonConfig read_daemon_config(const std::string& path);

} // namespace diskbench::service
