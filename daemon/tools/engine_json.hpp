// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "benchmark.hpp"
#include "contract/result_file.hpp"
#include "results/result.hpp"

#include <span>
#include <string>

namespace diskbench::tools {

// An engine result in the contract's result-file form, so what the CLI
// prints the app can open: the target's facts go to
// device_info, the state is "finished" or "cancelled".
contract::SavedResult saved_from_engine(const engine::Result& result);

// The benchmark kinds with their documented parameters as JSON.
std::string benchmarks_to_json(std::span<const engine::BenchmarkInfo> benchmarks);

} // namespace diskbench::tools
