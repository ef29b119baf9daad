// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

// The configuration of scheduled runs (/etc/diskbench/scheduled.conf, a
// key file; systemd/scheduled.conf, the file we install, documents every key): which devices,
// which kinds with which parameters, where the metrics go, and the quiet
// rule. Read before anything talks to the daemon: a bad file fails the
// service with the key and line named, and nothing is written.
namespace diskbench::cli {

// Which devices: every entry of Devices= is one of
//   all        every drive that is not removable (no partition, no loop device)
//   model:GLOB the drive model matches GLOB (fnmatch)
//   serial:S   the drive's serial is S
//   by-id:GLOB a /dev/disk/by-id name matches GLOB
//   /dev/NODE  that node
struct DeviceRule {
    enum class Kind { All, Model, Serial, ById, Node } kind;
    std::string pattern;
};

struct ScheduledKind {
    std::string kind;                     // "seek", "profile"
    std::vector<std::string> assignments; // KEY=VALUE, typed later against the daemon's list
};

struct ScheduledConfig {
    std::vector<DeviceRule> devices { { DeviceRule::Kind::All, {} } };
    std::vector<ScheduledKind> kinds;
    // node_exporter's textfile collector directory on Debian.
    std::string output = "/var/lib/prometheus/node-exporter/diskbench.prom";
    // Quiet rule: a device busier than this share of the window (the
    // io_ticks of /proc/diskstats: time with I/O in flight) is skipped.
    double quiet_max_busy_percent = 5;
    unsigned quiet_window_seconds = 10;
};

// Parses TEXT (the file's content; NAME for messages). On failure: nothing,
// and `error` says which key on which line is wrong and why.
std::optional<ScheduledConfig> parse_scheduled_config(const std::string& text, const std::string& name,
                                                      std::string& error);

// Whether DEVICE matches RULE. Only what is needed of a device.
struct DeviceIdentity {
    std::string node, model, serial, by_id;
    bool removable = false;
    bool not_a_drive = false; // a partition or a loop device: never in "all"
};
bool device_matches(const DeviceRule& rule, const DeviceIdentity& device);

} // namespace diskbench::cli
