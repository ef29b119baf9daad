// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark.hpp"

#include "benchmark_support.hpp"
#include "benchmarks/benchmarks.hpp"

namespace diskbench::engine {

std::span<const BenchmarkInfo> all_benchmarks()
{
    static const std::vector<BenchmarkInfo> list {
        benchmarks::seek(),        benchmarks::random_sweep(), benchmarks::sequential(),
        benchmarks::surface(),     benchmarks::block_sweep(),  benchmarks::profile(),
        benchmarks::queue_depth_sweep(),
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

void check_benchmark(const BenchmarkInfo& info, const Target& target, const ValueMap& given)
{
    const ParameterSet params = validate_parameters(info.params, given);
    Result scratch;
    Recorder recorder(scratch, nullptr);
    CancelToken cancel;
    const IoRunner io(BackendPreference::Psync); // never used: plan only
    BenchmarkContext ctx { target, params, recorder, scratch, cancel, io, true };
    info.run(ctx);
}

Result run_benchmark(const BenchmarkInfo& info, const Target& target, const ValueMap& given, SampleSink* sink,
                     const CancelToken& cancel)
{
    const ParameterSet params = validate_parameters(info.params, given);
    const IoRunner io(backend_preference(params));

    Result result;
    result.kind = std::string(info.kind);
    result.parameters = params.values();
    result.backend = std::string(backend_name(io.backend()));
    result.target_name = target.name;
    result.target_size = target.size;
    result.logical_block = target.logical_block;
    result.physical_block = target.physical_block;
    result.started = std::chrono::system_clock::now();

    Recorder recorder(result, sink);
    if (!io.fallback_reason().empty())
        recorder.warn("io_uring is not available (" + io.fallback_reason()
                      + "); used the psync thread pool, which costs more CPU per I/O");
    if (!target.is_block_device)
        recorder.warn("the target is a regular file: the figures include its filesystem and the device under it");
    BenchmarkContext ctx { target, params, recorder, result, cancel, io, false };
    info.run(ctx);

    result.cancelled = cancel.cancelled();
    if (!result.cancelled)
        recorder.set_progress(1.0);
    result.finished = std::chrono::system_clock::now();
    return result;
}

} // namespace diskbench::engine
