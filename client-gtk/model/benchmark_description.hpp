// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace diskbench::client {

// What a run will do, for the page's info popover: sizes, counts and queue
// depth in words, and fio command lines that measure the same thing, so a
// user can check our figures with a tool they trust.
struct BenchmarkDescription {
    std::string what;                      // translated paragraph
    std::vector<std::string> fio_commands; // one per fio run; several for sweeps
};

// `parameters`: the daemon's defaults overlaid with the page's settings.
// `node`: the device node, or the folder for the folder kinds.
BenchmarkDescription describe_benchmark(const std::string& kind, const SavedValueMap& parameters,
                                        const std::string& node, std::uint32_t logical_block_size);

} // namespace diskbench::client
