// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What one benchmark kind is (BenchmarkInfo: its name, parameters and run
// function) and what its run is handed (BenchmarkContext, DirectoryContext).
// The kinds in benchmarks/ include this, never the list of kinds
// (benchmark_registry.hpp, which includes them) nor the runner
// (benchmark_runner.hpp), so nothing in the engine includes upwards.

#include "base/cancel_token.hpp"
#include "io/io_runner.hpp"
#include "io/resource_budget.hpp"
#include "io/target.hpp"
#include "parameters/parameters.hpp"
#include "results/recorder.hpp"
#include "results/result.hpp"
#include "results/sample_sink.hpp"
#include "sandbox/filesystem_facts.hpp"
#include "storage/block_write_watch.hpp"

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
    // A device write's count of what the block layer wrote to the device,
    // for the whole run (every pass, every batch of preserve mode's writes):
    // a write between two of the run's batched_writes() calls is seen too.
    // Null for a plan and for a read.
    storage::BlockWriteWatch* write_watch = nullptr;
};

class FilesystemScope;

// What a filesystem benchmark works in: the caller's directory through a
// FilesystemScope. Its run function is called on the scope's thread, so
// everything it does (and every thread it starts: the I/O runner's) acts
// with the caller's filesystem credentials; so do the Recorder's calls into
// the SampleSink.
struct DirectoryContext {
    const FilesystemFacts& facts; // when the run started (free space, type)
    FilesystemScope* scope;       // null when plan_only
    const ParameterSet& params;
    Recorder& recorder;
    Result& result;
    const CancelToken& cancel;
    const IoRunner& io;
    bool plan_only = false;
};

// Device: reads a device, needs open_target_for_read. DeviceWrite:
// overwrites a device (in place with its own data, or destroying it), needs
// open_target_for_write; the raw write kinds take `mode` and `confirm`
// (device_write_support.hpp), a read kind that writes when asked
// (writes_when) keeps the data. Directory: works in a caller's directory.
enum class TargetKind { Device, DeviceWrite, Directory };

// One kind of benchmark. `params` documents every key it accepts. A device
// benchmark sets `run`, a filesystem benchmark `run_in_directory`; either
// first checks everything against the target (throwing ParameterError naming
// the key), returns if ctx.plan_only, and only then does I/O.
struct BenchmarkInfo {
    std::string_view kind;
    std::string_view title;
    std::string_view description;
    std::vector<ParamSpec> params;
    void (*run)(BenchmarkContext& ctx) = nullptr;
    void (*run_in_directory)(DirectoryContext& ctx) = nullptr;
    // Set by the kinds that write to the device (`run` then gets a Target
    // from open_target_for_write).
    bool writes_device = false;
    // A read kind that writes only when asked: the boolean parameter that
    // makes it write, in preserve mode (the overview's `write`, GNOME Disks'
    // opt-in write rate; the queue-depth sweep's `writes`). With it true, the run is a DeviceWrite in
    // every respect (target_for): write authorization, the device unused,
    // an exclusive open for writing.
    std::string_view writes_when = {};

    // How the kind is published (ListBenchmarks' target): what it does
    // with its defaults.
    [[nodiscard]] TargetKind target() const noexcept
    {
        if (run_in_directory)
            return TargetKind::Directory;
        return writes_device ? TargetKind::DeviceWrite : TargetKind::Device;
    }

    // How a run with these parameters (given or validated) must be
    // started: target(), or DeviceWrite when `writes_when` is true.
    [[nodiscard]] TargetKind target_for(const ValueMap& values) const noexcept
    {
        if (target() == TargetKind::Device && !writes_when.empty())
            if (const auto found = values.find(writes_when); found != values.end())
                if (const bool* on = std::get_if<bool>(&found->second); on && *on)
                    return TargetKind::DeviceWrite;
        return target();
    }
};

} // namespace diskbench::engine
