// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"

#include <string>
#include <string_view>

namespace diskbench::client {

// The consent a raw write needs (StartBenchmark's "mode" and "confirm"):
// "preserve" writes back what it read; "destroy" overwrites the data and is
// confirmed by typing the word the daemon publishes for the device
// (Device.EraseConfirmation: its serial, or its node when it has none).
enum class WriteMode { Preserve, Destroy };

// Whether a raw write kind only erases (no "keep data" mode): the ones the
// contract names (they write new data over their whole range) and any kind
// whose "mode" defaults to "destroy". The daemon still wants mode=destroy
// said, with confirm.
bool erases_only(const BenchmarkInfo& info);

// What the user must type to erase `device`, as the daemon says.
std::string write_confirmation(const DeviceEntry& device);
// The typed text matches (the contract's rule: surrounding blanks ignored, nothing else).
bool write_confirmed(const DeviceEntry& device, std::string_view typed);
// Why the device cannot be written now (mounted, in use), translated; "" when it can.
std::string write_blocker(const DeviceEntry& device);
// The options of a run: the page's settings plus mode (and confirm for destroy).
SavedValueMap write_options(const SavedValueMap& settings, WriteMode mode, std::string_view typed);
// "Samsung SSD 860 (/dev/sda)" for the warning.
std::string write_device_label(const DeviceEntry& device);

} // namespace diskbench::client
