// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Pieces every raw-read benchmark shares: units (base/units.hpp), the common parameters,
// block-size checks against the target, and the summary layout.

#include "contract/benchmark_kinds.hpp"
#include "benchmark_kind.hpp"
#include "results/latency_histogram.hpp"
#include "base/prng.hpp"
#include "base/units.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace diskbench::engine {

// Largest single request we issue: far above any useful block size, and
// keeps buffers (queue depth x this) bounded.
inline constexpr std::uint64_t max_request_size = 64 * MiB;

ParamSpec unsigned_param(std::string_view key, std::string_view description, std::uint64_t fallback,
                         std::uint64_t minimum, std::uint64_t maximum);
ParamSpec real_param(std::string_view key, std::string_view description, double fallback, double minimum,
                     double maximum);
ParamSpec bool_param(std::string_view key, std::string_view description, bool fallback);
ParamSpec text_param(std::string_view key, std::string_view description, std::string fallback,
                     std::vector<std::string_view> choices = {});

// Adds `backend`, which every benchmark that runs its I/O through the
// IoRunner takes (`default_backend` unless the caller chooses), and `seed`
// to those that draw random offsets.
enum class Seeded { No, Yes };
std::vector<ParamSpec> with_common_params(std::vector<ParamSpec> params, Seeded seeded = Seeded::Yes,
                                          std::string_view default_backend = "auto");
// The backend of the filesystem benchmarks that write a new file one block
// at a time (as dd and fio --ioengine=psync do): io_uring hands every
// O_DIRECT write that extends a file to a worker thread (ext4 cannot do
// those without blocking), a thread hop per write that a plain pwrite()
// does not pay: 12 % of the rate with 4 KiB blocks (tests/perf/fs_vs_fio.py).
inline constexpr std::string_view appending_writes_backend = "psync";
// Psync for a benchmark without `backend`: it does its own blocking
// pread()/pwrite() (mixed-load's sort), which is what psync names.
BackendPreference backend_preference(const ParameterSet& params);


// A block size given by key: 0 means "the device's logical block size";
// anything else must be a multiple of it and fit the device. Returns the size.
std::uint32_t checked_block_size(const BenchmarkContext& ctx, std::string_view key);

// An amount of bytes given by key, which must fit in `room`. A default that
// does not fit is scaled down to `room` (rounded down to `granule`) with a
// note; a value the caller gave that does not fit is an error.
std::uint64_t fitted_amount(const BenchmarkContext& ctx, std::string_view key, std::uint64_t room,
                            std::uint64_t granule, std::string_view what);
// The same for any benchmark; `where` ends the note ("the device", "the free space").
std::uint64_t fitted_amount(const ParameterSet& params, Recorder& recorder, std::string_view key, std::uint64_t room,
                            std::uint64_t granule, std::string_view what, std::string_view where);

// Refuses, naming `key`, a run whose reads in flight would take too many
// threads (psync runs one per read in flight) or too much buffer memory:
// at most 1024 reads in flight and 1 GiB of buffers. Without this one
// request could make the root daemon exhaust memory or threads.
inline constexpr std::uint64_t max_reads_in_flight = contract::kinds::max_reads_in_flight;
inline constexpr std::uint64_t max_buffer_bytes = contract::kinds::max_in_flight_bytes;
static_assert(max_buffer_bytes == GiB);
void check_in_flight(std::string_view key, std::uint64_t workers, std::uint64_t depth, std::uint64_t block);

// Powers of two from `smallest` to `largest` inclusive.
std::vector<std::uint32_t> powers_of_two(std::uint32_t smallest, std::uint32_t largest);

// mean/min/max/p50/p90/p99/p99.9 in microseconds under "<prefix>latency_*_us".
void add_latency_summary(ValueMap& summary, const LatencyHistogram& latency, const std::string& prefix = {});

// The latency distribution of a run as a series the clients draw as a CDF
// (contract::is_latency_cdf): "cdf", or "cdf-WHAT" for one part of a run;
// x the latency in us, y the percent of requests at or below it, at 19
// quantiles (the fastest, 0.1 %, 1 %, 5 %, every 10 %, 95 %, 99 %,
// 99.5 %, 99.9 %, 99.99 %, the slowest). Nothing for a histogram without
// requests.
void add_latency_cdf(Recorder& recorder, std::string_view what, const LatencyHistogram& latency);

// A distinct, reproducible seed for worker `index` of a run with `seed`.
std::uint64_t worker_seed(std::uint64_t seed, unsigned index) noexcept;

// Forwards completions to a callable; for observers that need no state of their own.
template <typename Function>
class ObserverFunction final : public CompletionObserver {
public:
    explicit ObserverFunction(Function function) : function_(std::move(function)) {}
    void completed(unsigned worker, const IoCompletion& completion) override { function_(worker, completion); }

private:
    Function function_;
};

// Reports progress of a time-bounded run from worker 0's completions,
// using completion timestamps (no extra clock reads) and forwarding only
// every 64th completion to stay off the hot path. The clock starts at the
// first completion's submission.
class TimeProgress final : public CompletionObserver {
public:
    TimeProgress(Recorder& recorder, double done_before, double share, std::uint64_t duration_ns) noexcept
        : recorder_(recorder), done_before_(done_before), share_(share), duration_ns_(duration_ns) {}
    void completed(unsigned worker, const IoCompletion& completion) override;

private:
    Recorder& recorder_;
    double done_before_, share_;
    std::uint64_t duration_ns_;
    std::uint64_t start_ns_ = 0;
    std::uint64_t count_ = 0;
};

} // namespace diskbench::engine
