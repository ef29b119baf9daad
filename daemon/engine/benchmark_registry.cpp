// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_registry.hpp"

#include "benchmarks/benchmarks.hpp"
#include "passes.hpp"

namespace diskbench::engine {

namespace {

// The kinds a repeat makes sense for take `passes` (passes.hpp). Not
// sustained-write: its second pass would start with the drive's SLC cache
// already full and measure what the first left behind, not a repeat; nor
// steady-state, whose rounds are its repeats (and whose second pass would
// start preconditioned); nor mixed-load, whose figures are about one long contended run; nor
// verify-capacity, a check whose answer a second pass cannot change.
BenchmarkInfo repeatable(BenchmarkInfo info)
{
    info.params.push_back(passes_param());
    return info;
}

// The kinds CrystalDiskMark's figures are compared with also take its
// scoring: the best of the passes after a warm-up (passes.hpp).
BenchmarkInfo scored(BenchmarkInfo info)
{
    info.params.push_back(scoring_param());
    return info;
}

} // namespace

std::span<const BenchmarkInfo> all_benchmarks()
{
    static const std::vector<BenchmarkInfo> list {
        repeatable(benchmarks::overview()),
        repeatable(benchmarks::seek()),        repeatable(benchmarks::random_sweep()),
        repeatable(benchmarks::sequential()),  repeatable(benchmarks::surface()),
        repeatable(benchmarks::block_sweep()), scored(repeatable(benchmarks::profile())),
        repeatable(benchmarks::queue_depth_sweep()), repeatable(benchmarks::burst()),
        repeatable(benchmarks::file_rw()),
        repeatable(benchmarks::write_sweep()), repeatable(benchmarks::device_write()),
        repeatable(benchmarks::device_write_sweep()), benchmarks::sustained_write(),
        benchmarks::steady_state(),            benchmarks::verify_capacity(), benchmarks::burn_in(),
        benchmarks::mixed_load(),              scored(repeatable(benchmarks::file_profile())),
        repeatable(benchmarks::file_qd_sweep()),
        repeatable(benchmarks::structure()), repeatable(benchmarks::small_files()),
    };
    return list;
}

const BenchmarkInfo* find_benchmark(std::string_view kind)
{
    for (const auto& info : all_benchmarks())
        if (info.kind == kind)
            return &info;
    return nullptr;
}

} // namespace diskbench::engine
