// SPDX-License-Identifier: GPL-3.0-or-later
// The io_uring backend: one ring per worker thread, queue_depth reads or
// writes kept in flight, completions reaped in batches.
#include "io_buffers.hpp"
#include "errors.hpp"
#include "io_worker.hpp"
#include "uring_ring.hpp"
#include "write_data.hpp"

#include <liburing.h>

#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace diskbench::engine::detail {

namespace {

struct Slot {
    IoRequest request;
    std::byte* data = nullptr; // the slot's buffer, or the spec's for this request
    std::uint64_t submitted_ns = 0;
};

// TEMPORARY (experiment): how to wait.
enum class WaitPolicy { One, Split, Batch, Spin };
WaitPolicy wait_policy()
{
    const char* v = std::getenv("DISKBENCH_IO_URING_WAIT");
    if (v && std::string_view(v) == "one")
        return WaitPolicy::One;
    if (v && std::string_view(v) == "batch")
        return WaitPolicy::Batch;
    if (v && std::string_view(v) == "spin")
        return WaitPolicy::Spin;
    return WaitPolicy::Split;
}

} // namespace

std::string probe_io_uring()
{
    try {
        UringRing ring(1, RingWishes { false, false, false, false });
        return {};
    } catch (const Error& error) {
        return error.what();
    }
}

void run_uring_worker(RunShared& shared, unsigned index, RequestSource& source, WorkerOutcome& outcome)
{
    const unsigned depth = shared.spec.queue_depth;
    std::unique_ptr<UringRing> ring;
    std::unique_ptr<IoBuffers> buffers;
    std::vector<Slot> slots;
    std::vector<unsigned> free_slots;
    std::vector<unsigned> just_queued;
    try {
        ring = std::make_unique<UringRing>(depth, RingWishes::from_environment());
        buffers = std::make_unique<IoBuffers>(depth, shared.spec.max_request_bytes, shared.target.memory_alignment);
        ring->register_file(shared.target.fd.get());
        if (!shared.spec.buffers) {
            std::vector<iovec> iovecs(depth);
            for (unsigned i = 0; i < depth; ++i)
                iovecs[i] = { buffers->slot(i), shared.spec.max_request_bytes };
            ring->register_buffers(iovecs);
        }
        slots.resize(depth);
        free_slots.reserve(depth);
        just_queued.reserve(depth);
        for (unsigned i = depth; i > 0; --i)
            free_slots.push_back(i - 1);
        std::vector<std::byte*> slot_buffers;
        for (unsigned i = 0; i < depth; ++i)
            slot_buffers.push_back(buffers->slot(i));
        prepare_write_buffers(shared, index, slot_buffers.data(), depth);
    } catch (...) {
        outcome.error = std::current_exception();
        shared.abort = true;
        shared.wait_for_start();
        return;
    }

    shared.wait_for_start();
    const ThreadCpuTime cpu_start = thread_cpu_time();

    unsigned in_flight = 0;
    bool exhausted = false;
    const int fd = shared.target.fd.get();
    const bool write = shared.spec.direction == IoDirection::Write;
    const bool own_data = shared.spec.buffers == nullptr;
    const WaitPolicy policy = wait_policy();
    outcome.ring_features = ring->features();
    try {
        while (true) {
            if (!exhausted && !outcome.error && !shared.should_stop(monotonic_ns())) {
                IoRequest request;
                while (!free_slots.empty() && (exhausted = !source.next(request)) == false) {
                    const unsigned slot = free_slots.back();
                    free_slots.pop_back();
                    io_uring_sqe* sqe = ::io_uring_get_sqe(ring->get());
                    std::byte* data = own_data ? buffers->slot(slot) : shared.spec.buffers->buffer_for(request);
                    if (write && own_data)
                        stamp_offsets(data, request.length, request.offset);
                    ring->prep(sqe, write, fd, data, request.length, request.offset,
                               own_data ? static_cast<int>(slot) : -1);
                    slots[slot].data = data;
                    ::io_uring_sqe_set_data64(sqe, slot);
                    slots[slot].request = request;
                    just_queued.push_back(slot);
                }
            }
            const auto queued = static_cast<unsigned>(just_queued.size());
            in_flight += queued;
            if (in_flight == 0)
                break;

            const std::uint64_t submitted_ns = monotonic_ns();
            for (unsigned slot : just_queued)
                slots[slot].submitted_ns = submitted_ns;
            just_queued.clear();
            int rc;
            do {
                if (policy == WaitPolicy::One)
                    rc = ::io_uring_submit_and_wait(ring->get(), 1);
                else if (policy == WaitPolicy::Batch)
                    rc = ::io_uring_submit_and_wait(ring->get(), in_flight >= 8 ? in_flight / 4 : 1);
                else if (queued > 0)
                    rc = ::io_uring_submit_and_get_events(ring->get());
                else if (policy == WaitPolicy::Spin) {
                    const std::uint64_t until = monotonic_ns() + 20'000;
                    do
                        rc = ::io_uring_get_events(ring->get());
                    while (rc >= 0 && ::io_uring_cq_ready(ring->get()) == 0 && monotonic_ns() < until);
                    if (rc >= 0 && ::io_uring_cq_ready(ring->get()) == 0)
                        rc = ::io_uring_submit_and_wait(ring->get(), 1);
                }
                else
                    rc = ::io_uring_submit_and_wait(ring->get(), 1);
            } while (rc == -EINTR);
            if (rc < 0)
                throw IoError(fmt::format("io_uring submit failed: {}", std::strerror(-rc)), -rc);

            const std::uint64_t completed_ns = monotonic_ns();
            io_uring_cqe* cqe = nullptr;
            unsigned head = 0;
            unsigned reaped = 0;
            io_uring_for_each_cqe(ring->get(), head, cqe)
            {
                ++reaped;
                const auto slot = static_cast<unsigned>(::io_uring_cqe_get_data64(cqe));
                const Slot& done = slots[slot];
                long result = cqe->res;
                std::uint64_t done_ns = completed_ns;
                if (write && result >= 0 && result < static_cast<long>(done.request.length)) {
                    // Rare (a full filesystem, a signal): finish it
                    // synchronously to learn whether and why it fails.
                    const int error_number = finish_short_write(fd, done.data, done.request,
                                                                static_cast<std::uint32_t>(result));
                    result = error_number != 0 ? -static_cast<long>(error_number)
                                               : static_cast<long>(done.request.length);
                    done_ns = monotonic_ns();
                }
                free_slots.push_back(slot);
                if (result != static_cast<long>(done.request.length)) {
                    if (!outcome.error) {
                        outcome.error = std::make_exception_ptr(request_error(shared, done.request, result));
                        shared.abort = true;
                    }
                    continue;
                }
                const IoCompletion completion { done.request, done.submitted_ns, done_ns };
                outcome.latency.record(completion.latency_ns());
                ++outcome.operations;
                outcome.bytes += done.request.length;
                outcome.last_completion_ns = done_ns;
                if (shared.spec.observer)
                    shared.spec.observer->completed(index, completion);
            }
            ::io_uring_cq_advance(ring->get(), reaped);
            in_flight -= reaped;
        }
    } catch (...) {
        if (!outcome.error)
            outcome.error = std::current_exception();
        shared.abort = true;
    }

    const ThreadCpuTime cpu_end = thread_cpu_time();
    outcome.cpu = { cpu_end.user_ns - cpu_start.user_ns, cpu_end.system_ns - cpu_start.system_ns };
    ring.reset();
    if (in_flight > 0) {
        // Only after a failure with reads still queued. Closing the ring does
        // not wait for them, and the kernel may still write into the
        // buffers: leak them rather than hand the memory back to malloc.
        [[maybe_unused]] IoBuffers* leaked = buffers.release();
    }
}

} // namespace diskbench::engine::detail
