// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cancel_token.hpp"
#include "clock.hpp"
#include "io_request.hpp"
#include "latency_histogram.hpp"
#include "resource_budget.hpp"
#include "target.hpp"
#include "ring_features.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace diskbench::engine {

enum class BackendKind { IoUring, Psync };
enum class BackendPreference { Automatic, IoUring, Psync };

std::string_view backend_name(BackendKind kind) noexcept;

// Mixed: each request says (IoRequest::write); writes as for Write.
enum class IoDirection { Read, Write, Mixed };

// Where the data of each request lives when a benchmark, not the runner,
// owns it: the device write benchmarks' preserve mode reads a batch into
// its own memory and then writes those same bytes back. Called on the I/O
// threads, possibly concurrently, so it must only look up: memory aligned
// to the target's memory_alignment, request.length bytes, valid until
// run() returns.
class RequestBuffers {
public:
    virtual ~RequestBuffers() = default;
    [[nodiscard]] virtual std::byte* buffer_for(const IoRequest& request) const = 0;
};

struct IoRunSpec {
    unsigned workers = 1;     // threads, each with its own queue
    unsigned queue_depth = 1; // I/Os in flight per worker
    std::uint32_t max_request_bytes = 4096; // largest request a source will make
    // Writes send pseudo-random data (write_data.hpp) drawn from this seed,
    // a different stream per worker and buffer. A short write is finished
    // with pwrite() so a failure reports the real cause (ENOSPC), not
    // "short write".
    IoDirection direction = IoDirection::Read;
    std::uint64_t data_seed = 0;
    // When set, reads land in and writes are sent from these buffers,
    // unchanged (no seeded data, no offset stamps), instead of the worker's.
    const RequestBuffers* buffers = nullptr;
    // Called once per worker, before the clock starts.
    std::function<std::unique_ptr<RequestSource>(unsigned worker)> make_source;
    // Stop submitting after this long (0: run until every source is exhausted).
    std::uint64_t time_limit_ns = 0;
    CompletionObserver* observer = nullptr;
    const CancelToken* cancel = nullptr;
};

struct IoRunStats {
    std::uint64_t operations = 0;
    std::uint64_t bytes = 0;
    std::uint64_t started_ns = 0;  // when all workers were released together
    std::uint64_t finished_ns = 0; // when the last completion was reaped
    LatencyHistogram latency;
    ThreadCpuTime cpu;             // summed over the I/O threads
    bool cancelled = false;
    // The io_uring features every worker's ring used, e.g.
    // "defer_taskrun,registered_ring,fixed_file,fixed_buffers" or "plain";
    // empty for psync.
    std::string io_uring_features;

    [[nodiscard]] double seconds() const noexcept
    {
        return finished_ns > started_ns ? static_cast<double>(finished_ns - started_ns) / 1e9 : 0.0;
    }
    [[nodiscard]] double megabytes_per_second() const noexcept; // 10^6 bytes
    [[nodiscard]] double iops() const noexcept;
    [[nodiscard]] double cpu_percent() const noexcept;         // of one CPU
};

// Runs a batch of I/O against a target with a chosen backend. With the
// automatic preference it uses io_uring when a ring can be set up here and
// falls back to a psync thread pool (queue depth = threads per worker)
// otherwise; fallback_reason() says why.
class IoRunner {
public:
    // With a budget, every run() reserves its threads and buffers from it
    // for as long as it runs (LimitsError when they do not fit).
    explicit IoRunner(BackendPreference preference, ResourceBudget* budget = nullptr);

    [[nodiscard]] BackendKind backend() const noexcept { return backend_; }
    [[nodiscard]] const std::string& fallback_reason() const noexcept { return fallback_reason_; }
    // The io_uring features that every run so far used (empty before the
    // first io_uring run): what a result reports as "io_uring_features".
    [[nodiscard]] std::string io_uring_features() const;

    // Blocks until done, cancelled or failed. An I/O error on any worker stops
    // them all and is rethrown here as IoError.
    IoRunStats run(const Target& target, const IoRunSpec& spec) const;

private:
    BackendKind backend_;
    std::string fallback_reason_;
    ResourceBudget* budget_ = nullptr;
    // Runs are const (a benchmark holds a const IoRunner), the record of
    // what they used is not; guarded for runs from several threads.
    mutable std::mutex features_mutex_;
    mutable std::optional<detail::RingFeatures> features_used_;
};

} // namespace diskbench::engine
