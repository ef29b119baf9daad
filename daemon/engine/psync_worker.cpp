// SPDX-License-Identifier: GPL-3.0-or-later
// The fallback backend for where io_uring cannot be set up (old kernels,
// seccomp filters, io_uring_disabled=2): a worker's queue depth becomes that
// many threads each doing blocking pread(), so QD still means I/Os in flight.
#include "io_buffers.hpp"
#include "errors.hpp"
#include "io_worker.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

namespace diskbench::engine::detail {

namespace {

struct PsyncThreadOutcome {
    LatencyHistogram latency;
    ThreadCpuTime cpu;
};

// State the threads of one worker share; `mutex` guards the source, the
// observer calls and the counters.
struct WorkerState {
    std::mutex mutex;
    RequestSource& source;
    WorkerOutcome& outcome;
    bool exhausted = false;
};

void psync_thread(RunShared& shared, unsigned index, WorkerState& state, std::byte* buffer,
                  PsyncThreadOutcome& mine)
{
    const ThreadCpuTime cpu_start = thread_cpu_time();
    const int fd = shared.target.fd.get();
    while (true) {
        IoRequest request;
        {
            std::lock_guard lock(state.mutex);
            if (state.exhausted || state.outcome.error || shared.should_stop(monotonic_ns()))
                break;
            if (!state.source.next(request)) {
                state.exhausted = true;
                break;
            }
        }
        const std::uint64_t submitted_ns = monotonic_ns();
        ssize_t res;
        do
            res = ::pread(fd, buffer, request.length, static_cast<off_t>(request.offset));
        while (res < 0 && errno == EINTR);
        const int error_number = res < 0 ? errno : EIO;
        const std::uint64_t completed_ns = monotonic_ns();

        std::lock_guard lock(state.mutex);
        if (res != static_cast<ssize_t>(request.length)) {
            if (!state.outcome.error) {
                state.outcome.error = std::make_exception_ptr(IoError(
                    res < 0 ? fmt::format("{}: read of {} bytes at offset {} failed: {}", shared.target.name,
                                          request.length, request.offset, std::strerror(error_number))
                            : fmt::format("{}: short read at offset {}: {} of {} bytes", shared.target.name,
                                          request.offset, res, request.length),
                    error_number));
                shared.abort = true;
            }
            break;
        }
        const IoCompletion completion { request, submitted_ns, completed_ns };
        mine.latency.record(completion.latency_ns());
        ++state.outcome.operations;
        state.outcome.bytes += request.length;
        state.outcome.last_completion_ns = std::max(state.outcome.last_completion_ns, completed_ns);
        if (shared.spec.observer)
            shared.spec.observer->completed(index, completion);
    }
    const ThreadCpuTime cpu_end = thread_cpu_time();
    mine.cpu = { cpu_end.user_ns - cpu_start.user_ns, cpu_end.system_ns - cpu_start.system_ns };
}

} // namespace

void run_psync_worker(RunShared& shared, unsigned index, RequestSource& source, WorkerOutcome& outcome)
{
    const unsigned depth = shared.spec.queue_depth;
    std::unique_ptr<IoBuffers> buffers;
    try {
        buffers = std::make_unique<IoBuffers>(depth, shared.spec.max_request_bytes, shared.target.memory_alignment);
    } catch (...) {
        outcome.error = std::current_exception();
        shared.abort = true;
        shared.wait_for_start();
        return;
    }
    WorkerState state { {}, source, outcome };
    std::vector<PsyncThreadOutcome> per_thread(depth);
    shared.wait_for_start();
    {
        std::vector<std::jthread> threads;
        threads.reserve(depth);
        for (unsigned i = 0; i < depth; ++i)
            threads.emplace_back([&, i] { psync_thread(shared, index, state, buffers->slot(i), per_thread[i]); });
    }
    for (const auto& thread_outcome : per_thread) {
        outcome.latency.merge(thread_outcome.latency);
        outcome.cpu.user_ns += thread_outcome.cpu.user_ns;
        outcome.cpu.system_ns += thread_outcome.cpu.system_ns;
    }
}

} // namespace diskbench::engine::detail
