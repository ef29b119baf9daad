// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"
#include "types/result_types.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Results as Prometheus metrics, for fleets: what `diskbenchctl export
// --format=openmetrics` and `run --openmetrics FILE` write, and what
// node_exporter's textfile collector serves to Prometheus.
//
// The text is OpenMetrics (it ends with "# EOF") and, line for line, also
// the Prometheus text format node_exporter's textfile collector reads:
// gauges and one summary only, no OpenMetrics-only types ("info" is the
// common `_info` gauge of value 1), and "# UNIT"/"# EOF" are comments there.
// Base units (seconds, bytes), one family per quantity, labels for what
// varies (docs/metrics.md lists the families and labels).
namespace diskbench::client {

// A label value as both formats want it: backslash, double quote and line
// feed escaped; text that is not UTF-8 made valid (U+FFFD), since a model
// name comes from the drive's firmware. Every other control character (C0,
// DEL and the C1 U+0080..U+009F, which a terminal reads as CSI and the
// like) becomes the text "\xNN" (each of a C1's two bytes), as `show`
// writes them (text/terminal_text.hpp): both formats allow raw controls in
// a label value, but a metrics file is read by people too, on a terminal
// (`export` to standard output, `cat`), where a result file's ESC ] 0; or
// ESC [2J in a model name would set the window's title or clear the
// screen. The backslash of "\xNN" is escaped as any other ("\\x1b" in the
// text), so Prometheus reads the label as the four characters \x1b.
std::string escape_label_value(std::string_view value);

// The device label of a result: the disk's /dev/disk/by-id name when the
// daemon recorded one (stable across reboots and ports), else its WWN,
// else the node's name ("loop0"), else the folder for folder results.
std::string metrics_device_label(const SavedResult& result);

// The same label for a device the daemon offers now (its ById, API 0.8).
std::string metrics_device_label(const DeviceEntry& device);

// What a scheduled run (diskbenchctl scheduled) says about itself, besides
// its results: when it ended, and per device it chose, the quiet rule's
// reading and why it was not measured.
struct ScheduledDevice {
    std::string device, model, serial; // labels as on the results
    std::optional<double> busy_ratio;  // 0..1, when it was read
    std::string skipped;               // "" measured; "busy", "failed"
};
struct ScheduledRun {
    double ended_at = 0; // Unix time, seconds
    std::vector<ScheduledDevice> devices;
};

// The metric families of RESULTS (and of SCHEDULED when given), each family
// once, then "# EOF". Only finished runs count (a cancelled one measured
// part of its span). Of several results of the same kind on the same device
// only the newest is exported (one series per label set: a scrape is a
// snapshot, the history is Prometheus').
std::string openmetrics_text(const std::vector<SavedResult>& results, const ScheduledRun* scheduled = nullptr);

} // namespace diskbench::client
