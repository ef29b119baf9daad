// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Checking and running one benchmark: the parameters validated once
// (validate_request), then checked against the target and run, with what
// every run shares (passes, the block-layer cross-check, the stack, the
// I/O backend, a device write's watch of other writers).

#include "benchmark_kind.hpp"

namespace diskbench::engine {

// The start request's parameters, validated against the kind's schema
// (validate_parameters): the one check of the caller's a{sv} or command
// line, whose result the functions below take.
ParameterSet validate_request(const BenchmarkInfo& info, const ValueMap& given);

// Checks the parameters against the target without doing any I/O. Throws
// ParameterError on the first bad key, Error when `info` is a filesystem
// benchmark or `params` were validated for another kind.
void check_benchmark(const BenchmarkInfo& info, const Target& target, const ParameterSet& params);

// Runs one device benchmark (Device or DeviceWrite) to the end, to cancellation (result.cancelled,
// with everything measured so far) or to the first error (thrown:
// ParameterError before any I/O, IoError during it). `sink` may be null.
// Error when `info` is a filesystem benchmark, TargetError when it writes
// and `target` was not opened for writing.
// With a budget, the run's I/O threads and buffers count against it
// (resource_budget.hpp).
Result run_benchmark(const BenchmarkInfo& info, const Target& target, const ParameterSet& params, SampleSink* sink,
                     const CancelToken& cancel, ResourceBudget* budget = nullptr);

// The same for filesystem benchmarks. Checking needs only the facts of the
// filesystem (filesystem_facts() of the caller's directory fd, which reads
// nothing and writes nothing), so it can run before authorization and
// before any scratch directory exists. Running happens on the scope's
// thread; the scope's scratch directory stays until the scope goes, and
// whatever the benchmark wrote is gone by then (unnamed files, or a tree
// the benchmark removes itself, also when cancelled or failing).
void check_directory_benchmark(const BenchmarkInfo& info, const FilesystemFacts& facts, const ParameterSet& params);
Result run_directory_benchmark(const BenchmarkInfo& info, FilesystemScope& scope, const ParameterSet& params,
                               SampleSink* sink, const CancelToken& cancel, ResourceBudget* budget = nullptr);

} // namespace diskbench::engine
