// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../benchmark.hpp"

// One function per benchmark kind, each in its own file; the registry in
// benchmark.cpp lists them. The device benchmarks only read from the
// target; the filesystem benchmarks write, but only in their
// FilesystemScope's scratch directory: unnamed files, or (structure,
// small-files) a tree below it that they remove again.
namespace diskbench::engine::benchmarks {

BenchmarkInfo seek();
BenchmarkInfo random_sweep();
BenchmarkInfo sequential();
BenchmarkInfo surface();
BenchmarkInfo block_sweep();
BenchmarkInfo profile();
BenchmarkInfo queue_depth_sweep();
BenchmarkInfo file_rw();
BenchmarkInfo write_sweep();
BenchmarkInfo structure();
BenchmarkInfo small_files();

} // namespace diskbench::engine::benchmarks
