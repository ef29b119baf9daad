// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../benchmark_kind.hpp"

// One function per benchmark kind, each in its own file; the registry in
// benchmark.cpp lists them. The device benchmarks only read from the
// target, except the device write benchmarks (writes_device, or a read
// kind's writes_when, on a target from open_target_for_write); the
// filesystem benchmarks write, but only unnamed files in their
// FilesystemScope's scratch directory, or (structure, small-files) a tree
// below it that they remove again.
namespace diskbench::engine::benchmarks {

BenchmarkInfo overview();
BenchmarkInfo seek();
BenchmarkInfo random_sweep();
BenchmarkInfo sequential();
BenchmarkInfo surface();
BenchmarkInfo block_sweep();
BenchmarkInfo profile();
BenchmarkInfo queue_depth_sweep();
BenchmarkInfo burst();
BenchmarkInfo file_rw();
BenchmarkInfo file_profile();
BenchmarkInfo file_qd_sweep();
BenchmarkInfo write_sweep();
BenchmarkInfo device_write();
BenchmarkInfo device_write_sweep();
BenchmarkInfo sustained_write();
BenchmarkInfo steady_state();
BenchmarkInfo verify_capacity();
BenchmarkInfo burn_in();
BenchmarkInfo mixed_load();
BenchmarkInfo structure();
BenchmarkInfo small_files();

} // namespace diskbench::engine::benchmarks
