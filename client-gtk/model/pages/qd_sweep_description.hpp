// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../benchmark_description.hpp"

namespace diskbench::client {

// The info popover of both queue-depth sweeps: on a device (NODE) or on a
// test file in a folder (IN_FOLDER; NODE is the folder). A device's writes
// keep the data, which fio cannot do, so they get no commands.
BenchmarkDescription describe_qd_sweep(bool in_folder, const SavedValueMap& p, const std::string& node,
                                       std::uint32_t logical_block_size);

} // namespace diskbench::client
