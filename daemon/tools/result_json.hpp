// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "benchmark.hpp"
#include "result.hpp"

#include <span>
#include <string>

namespace diskbench::tools {

// The engine's Result as pretty-printed JSON (json-glib).
std::string result_to_json(const engine::Result& result);

// The benchmark kinds with their documented parameters as JSON.
std::string benchmarks_to_json(std::span<const engine::BenchmarkInfo> benchmarks);

} // namespace diskbench::tools
