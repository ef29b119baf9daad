// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/result_report.hpp"

#include <string>
#include <string_view>

// The Profiles results (profile on a device, file-profile in a folder) as
// CrystalDiskMark prints its text result, the text its users paste into
// forums: a [Read], [Write] and [Mix] block with a line per test
//   "  SEQ    1MiB (Q=  8, T= 1):  2507.041 MB/s [   2390.9 IOPS] <  3342.95 us>"
// (MB/s of 10^6 bytes, IOPS, mean latency in µs), then the profile, test
// size, times and date, and after them what CrystalDiskMark does not have:
// the checks as ✓/⚠ lines, warnings and notes, and the device line.
namespace diskbench::client {

// Which Profiles ran: the device's (reads only) or a folder's (each test
// read and written, then the mixed test).
enum class CrystalRun { Device, Folder };

std::string crystal_report(const SavedResult& result, const OutsideText& outside, CrystalRun run);

// "SEQ1M Q8T1" as CrystalDiskMark writes it: "SEQ    1MiB (Q=  8, T= 1)";
// the label unchanged when it does not follow that pattern.
std::string crystal_test_name(std::string_view label);

} // namespace diskbench::client
