// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "benchmark_description.hpp"

#include <optional>

namespace diskbench::client {

// The info popover's text for the write kinds: the folder benchmarks
// (file-rw, write-sweep, structure, small-files, mixed-load; `target` is the
// folder) and the raw device writes (device-write, device-write-sweep,
// sustained-write, verify-capacity; `target` is the device node). Sizes in words, and the fio
// or dd command lines that measure the same where such a command exists;
// nothing for other kinds.
std::optional<BenchmarkDescription> describe_write_benchmark(const std::string& kind, const SavedValueMap& parameters,
                                                             const std::string& target,
                                                             std::uint32_t logical_block_size);

// A path for a shell command line: quoted when it needs it.
std::string shell_quoted(const std::string& path);

} // namespace diskbench::client
