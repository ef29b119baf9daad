// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Internal to the I/O runner: what one worker thread shares with the others
// and what it hands back. Not part of the engine's public interface.

#include "../base/errors.hpp"
#include "io_runner.hpp"
#include "ring_features.hpp"

#include <atomic>
#include <cstddef>
#include <exception>
#include <latch>

namespace diskbench::engine::detail {

struct RunShared {
    RunShared(const Target& t, const IoRunSpec& s)
        : target(t), spec(s), ready(static_cast<std::ptrdiff_t>(s.workers)) {}

    const Target& target;
    const IoRunSpec& spec;
    std::latch ready;          // every worker has set up its queue and buffers
    std::latch go { 1 };       // the clock has started
    std::uint64_t started_ns = 0;
    std::uint64_t deadline_ns = 0; // 0: none
    std::atomic<bool> abort { false }; // another worker failed

    // Polled between submissions: cancellation, another worker's failure, time limit.
    [[nodiscard]] bool should_stop(std::uint64_t now_ns) const noexcept
    {
        return (spec.cancel && spec.cancel->cancelled()) || abort.load(std::memory_order_relaxed)
            || (deadline_ns != 0 && now_ns >= deadline_ns);
    }
    // Setup is done (or failed); wait for the common start.
    void wait_for_start()
    {
        ready.count_down();
        go.wait();
    }
};

struct WorkerOutcome {
    std::uint64_t operations = 0;
    std::uint64_t bytes = 0;
    std::uint64_t failed_operations = 0, failed_bytes = 0; // tolerated read errors
    std::uint64_t last_completion_ns = 0;
    LatencyHistogram latency;
    ThreadCpuTime cpu;
    std::exception_ptr error;
    RingFeatures ring_features; // io_uring workers only
};

// Each runs one worker to the end on the calling thread. They always call
// shared.wait_for_start() exactly once, also when setup fails, so the run
// never deadlocks; failures land in outcome.error.
void run_uring_worker(RunShared& shared, unsigned index, RequestSource& source, WorkerOutcome& outcome);
void run_psync_worker(RunShared& shared, unsigned index, RequestSource& source, WorkerOutcome& outcome);

// Whether `request` writes in a run of `spec`.
inline bool writes(const IoRunSpec& spec, const IoRequest& request) noexcept
{
    return spec.direction == IoDirection::Write || (spec.direction == IoDirection::Mixed && request.write);
}

// Fills the buffers of a write run before the clock starts (no-op for reads).
void prepare_write_buffers(const RunShared& shared, unsigned worker, std::byte* const* slots, unsigned count);

// Writes what a short write left of `request` (`done` bytes went out) with
// pwrite(); 0 when all of it is written, else the errno that stopped it.
int finish_short_write(int fd, const std::byte* block, const IoRequest& request, std::uint32_t done);

// Whether a request that returned RESULT (-errno) is one the run goes on
// after (IoRunSpec::tolerate_read_errors, tolerate_write_errors).
inline bool tolerated_failure(const IoRunSpec& spec, const IoRequest& request, long result) noexcept
{
    const bool tolerated = writes(spec, request) ? spec.tolerate_write_errors : spec.tolerate_read_errors;
    return tolerated && result < 0 && is_media_error(static_cast<int>(-result));
}

// The error for a request that returned `result` (< 0: -errno; else fewer
// bytes than asked).
IoError request_error(const RunShared& shared, const IoRequest& request, long result);

// Why io_uring cannot be used here, or empty when it can.
std::string probe_io_uring();

} // namespace diskbench::engine::detail
