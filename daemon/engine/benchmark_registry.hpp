// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The benchmark kinds diskbenchd offers, in ListBenchmarks' order. A new
// kind is added here and in benchmarks/benchmarks.hpp.

#include "benchmark_kind.hpp"

#include <span>
#include <string_view>

namespace diskbench::engine {

// Every kind, device and filesystem benchmarks alike (see target()).
std::span<const BenchmarkInfo> all_benchmarks();
const BenchmarkInfo* find_benchmark(std::string_view kind);

} // namespace diskbench::engine
