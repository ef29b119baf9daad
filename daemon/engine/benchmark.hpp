// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cancel_token.hpp"
#include "io_runner.hpp"
#include "parameters.hpp"
#include "recorder.hpp"
#include "result.hpp"
#include "sample_sink.hpp"
#include "target.hpp"

#include <span>
#include <string_view>
#include <vector>

namespace diskbench::engine {

struct BenchmarkContext {
    const Target& target;
    const ParameterSet& params;
    Recorder& recorder;
    Result& result;
    const CancelToken& cancel;
    const IoRunner& io;
    // Set by check_benchmark(): the benchmark checks its parameters against
    // the target, records its notes, and returns before any I/O.
    bool plan_only = false;
};

// One kind of benchmark. `params` documents every key it accepts; `run`
// first checks everything against the target (throwing ParameterError naming
// the key), returns if ctx.plan_only, and only then does I/O.
struct BenchmarkInfo {
    std::string_view kind;
    std::string_view title;
    std::string_view description;
    std::vector<ParamSpec> params;
    void (*run)(BenchmarkContext& ctx);
};

std::span<const BenchmarkInfo> all_benchmarks();
const BenchmarkInfo* find_benchmark(std::string_view kind);

// Validates the parameters (schema, then against the target) without doing
// any I/O. Throws ParameterError on the first bad key.
void check_benchmark(const BenchmarkInfo& info, const Target& target, const ValueMap& given);

// Runs one benchmark to the end, to cancellation (result.cancelled, with
// everything measured so far) or to the first error (thrown: ParameterError
// before any I/O, IoError during it). `sink` may be null.
Result run_benchmark(const BenchmarkInfo& info, const Target& target, const ValueMap& given, SampleSink* sink,
                     const CancelToken& cancel);

} // namespace diskbench::engine
