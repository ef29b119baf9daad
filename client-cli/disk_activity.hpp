// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>

// The scheduled runs' quiet rule: how busy a disk was lately, from the
// kernel's own accounting, so a scheduled benchmark never competes with
// someone working on the machine.
namespace diskbench::cli {

// /proc/diskstats now ("" when it cannot be read).
std::string read_diskstats();

// The busy share (0..1) of DEVICE_NAME ("sda") between two /proc/diskstats
// readings WINDOW_MS apart: how much its io_ticks (the 10th figure after
// the name: milliseconds with I/O in flight) grew, as a share of the
// window. Nothing when the device is missing from either reading.
std::optional<double> busy_share(const std::string& diskstats_before, const std::string& diskstats_after,
                                 const std::string& device_name, double window_ms);

} // namespace diskbench::cli
