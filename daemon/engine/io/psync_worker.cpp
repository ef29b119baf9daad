// SPDX-License-Identifier: GPL-3.0-or-later
// The fallback backend for where io_uring cannot be set up (old kernels,
// seccomp filters, io_uring_disabled=2): a worker's queue depth becomes that
// many threads each doing blocking pread() or pwrite(), so QD still means
// I/Os in flight.
#include "io_buffers.hpp"
#include "../base/errors.hpp"
#include "io_worker.hpp"
#include "write_data.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <latch>
#include <mutex>
#include <thread>
#include <vector>

#include <fmt/format.h>

namespace diskbench::engine::detail {

namespace {

// State the threads of one worker share; `mutex` guards the source, the
// observer calls, the histogram and the counters.
struct WorkerState {
    std::mutex mutex;
    RequestSource& source;
    WorkerOutcome& outcome;
    bool exhausted = false;
};

void fail(RunShared& shared, WorkerState& state, std::exception_ptr error)
{
    if (!state.outcome.error)
        state.outcome.error = std::move(error);
    shared.abort = true;
}

void psync_thread(RunShared& shared, unsigned index, WorkerState& state, std::byte* own_buffer)
{
    const ThreadCpuTime cpu_start = thread_cpu_time();
    const int fd = shared.target.fd.get();
    try {
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
            const bool write = writes(shared.spec, request);
            std::byte* const buffer = shared.spec.buffers ? shared.spec.buffers->buffer_for(request) : own_buffer;
            if (write && !shared.spec.buffers) {
                if (shared.spec.pattern)
                    shared.spec.pattern->stamp(buffer, request);
                else
                    stamp_offsets(buffer, request.length, request.offset);
            }
            const std::uint64_t submitted_ns = monotonic_ns();
            ssize_t res;
            do
                res = write ? ::pwrite(fd, buffer, request.length, static_cast<off_t>(request.offset))
                            : ::pread(fd, buffer, request.length, static_cast<off_t>(request.offset));
            while (res < 0 && errno == EINTR);
            long result = res < 0 ? -errno : res;
            if (write && res >= 0 && res < static_cast<ssize_t>(request.length)) {
                const int error_number = finish_short_write(fd, buffer, request, static_cast<std::uint32_t>(res));
                result = error_number != 0 ? -static_cast<long>(error_number)
                                           : static_cast<long>(request.length);
            }
            const std::uint64_t completed_ns = monotonic_ns();

            std::lock_guard lock(state.mutex);
            if (tolerated_failure(shared.spec, request, result)) {
                ++state.outcome.failed_operations;
                state.outcome.failed_bytes += request.length;
                if (shared.spec.observer)
                    shared.spec.observer->completed(
                        index, IoCompletion { request, submitted_ns, completed_ns, static_cast<int>(-result) });
                continue;
            }
            if (result != static_cast<long>(request.length)) {
                fail(shared, state, std::make_exception_ptr(request_error(shared, request, result)));
                break;
            }
            IoCompletion completion { request, submitted_ns, completed_ns };
            completion.data = buffer;
            state.outcome.latency.record(completion.latency_ns());
            ++state.outcome.operations;
            state.outcome.bytes += request.length;
            state.outcome.last_completion_ns = std::max(state.outcome.last_completion_ns, completed_ns);
            if (shared.spec.observer)
                shared.spec.observer->completed(index, completion);
        }
    } catch (...) {
        std::lock_guard lock(state.mutex);
        fail(shared, state, std::current_exception());
    }
    const ThreadCpuTime cpu_end = thread_cpu_time();
    std::lock_guard lock(state.mutex);
    state.outcome.cpu.user_ns += cpu_end.user_ns - cpu_start.user_ns;
    state.outcome.cpu.system_ns += cpu_end.system_ns - cpu_start.system_ns;
}

} // namespace

void run_psync_worker(RunShared& shared, unsigned index, RequestSource& source, WorkerOutcome& outcome)
{
    const unsigned depth = shared.spec.queue_depth;
    WorkerState state { {}, source, outcome };
    std::unique_ptr<IoBuffers> buffers;
    // The threads are made before the clock starts and wait for it here, so
    // creating up to 1023 of them is not timed. This worker's own thread is
    // the last of the `depth`: a pool of exactly queue_depth threads, which
    // is what the runner reserves (a coordinating thread beside them was
    // one thread per worker that no budget counted).
    std::latch go(1);
    std::vector<std::thread> threads;
    bool set_up = false;
    try {
        buffers = std::make_unique<IoBuffers>(depth, shared.spec.max_request_bytes, shared.target.memory_alignment);
        std::vector<std::byte*> slots;
        for (unsigned i = 0; i < depth; ++i)
            slots.push_back(buffers->slot(i));
        prepare_write_buffers(shared, index, slots.data(), depth);
        threads.reserve(depth - 1);
        for (unsigned i = 0; i + 1 < depth; ++i)
            threads.emplace_back([&, i] {
                go.wait();
                psync_thread(shared, index, state, buffers->slot(i));
            });
        set_up = true;
    } catch (...) {
        // Out of memory or threads: the threads that did start see `abort`
        // and end at once.
        fail(shared, state, std::current_exception());
    }
    shared.wait_for_start();
    go.count_down();
    if (set_up)
        psync_thread(shared, index, state, buffers->slot(depth - 1));
    for (auto& thread : threads)
        thread.join();
}

} // namespace diskbench::engine::detail
