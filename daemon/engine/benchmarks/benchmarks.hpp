// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../benchmark.hpp"

// One function per benchmark kind, each in its own file; the registry in
// benchmark.cpp lists them. The device benchmarks only read from the
// target, except the device write benchmarks (writes_device, on a target
// from open_target_for_write); the filesystem benchmarks write, but only
// unnamed files in their FilesystemScope's scratch directory.
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
BenchmarkInfo device_write();
BenchmarkInfo device_write_sweep();
BenchmarkInfo sustained_write();
BenchmarkInfo mixed_load();

} // namespace diskbench::engine::benchmarks
