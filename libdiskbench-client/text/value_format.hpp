// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace diskbench::client {

// How a series' unit (the daemon's short identifiers) is shown to people.
enum class Unit { Bytes, MegabytesPerSecond, Iops, Microseconds, QueueDepth, Seconds, OperationsPerSecond, Celsius, Plain };

Unit unit_from_name(std::string_view daemon_unit) noexcept;

// "512 B", "4 KiB", "1.5 GiB"; "250 MB/s"; "12.3k IOPS"; "85 µs", "4.2 ms",
// "1.20 s"; with the unit names translated. `step` (0: unknown) is the axis
// spacing, so neighbouring labels get enough digits to differ.
std::string format_value(double value, Unit unit, double step = 0);

} // namespace diskbench::client
