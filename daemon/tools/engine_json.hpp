// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "benchmark.hpp"
#include "model/saved_result.hpp"
#include "result.hpp"

#include <span>
#include <string>

namespace diskbench::tools {

// An engine result in the client's result-file form (client-gtk/model), so
// what the CLI prints the app can open: the target's facts go to
// device_info, the state is "finished" or "cancelled".
client::SavedResult saved_from_engine(const engine::Result& result);

// The benchmark kinds with their documented parameters as JSON.
std::string benchmarks_to_json(std::span<const engine::BenchmarkInfo> benchmarks);

} // namespace diskbench::tools
