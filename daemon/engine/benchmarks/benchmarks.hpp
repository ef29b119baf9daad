// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../benchmark.hpp"

// One function per benchmark kind, each in its own file; the registry in
// benchmark.cpp lists them. All of them only read from the target.
namespace diskbench::engine::benchmarks {

BenchmarkInfo seek();
BenchmarkInfo random_sweep();
BenchmarkInfo sequential();
BenchmarkInfo surface();
BenchmarkInfo block_sweep();
BenchmarkInfo profile();
BenchmarkInfo queue_depth_sweep();

} // namespace diskbench::engine::benchmarks
