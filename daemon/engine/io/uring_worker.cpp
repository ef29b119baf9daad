// SPDX-License-Identifier: GPL-3.0-or-later
// The io_uring backend: one ring per worker thread, queue_depth reads or
// writes kept in flight.
//
// How the ring is driven, and why (measured on a RAM-backed loop device,
// where the CPU path decides; see tests/perf/engine_vs_fio.py):
//  - Registered ring fd, registered file, registered buffers (uring_ring.hpp):
//    per-request fd lookups and page pinning go away, as with fio's
//    --fixedbufs --registerfiles.
//  - Never wait while there is something to submit: new requests go in with
//    a call that also collects finished ones but does not sleep. Waiting for
//    one completion right after submitting (one io_uring_submit_and_wait(1)
//    per loop, what this did before) put the thread to sleep every time and
//    doubled the QD1 latency.
//  - When nothing can be submitted and only a few requests are in flight
//    (kPollMaxInFlight), poll the kernel for a completion for a short while
//    (kSpinNs) before sleeping, as long as such polls keep catching their
//    completion (PollRule). A sleep and its wake-up cost more than a fast
//    device's whole I/O, and every sleep invites the scheduler to move the
//    thread to the other CPU; the short poll keeps QD1 on a fast device
//    awake, while a slower device (a disk-backed loop at 40-60 µs per wait)
//    sleeps at once and pays only an occasional trial poll.
//    With many requests in flight the worker sleeps at once, as fio does:
//    a completion is nearly always ready when it enters the kernel to
//    submit, so it seldom sleeps anyway, and polling would take a CPU from
//    whatever completes the requests (on a RAM-backed loop device, the
//    kernel workers copying the data and completing the requests on the
//    other CPU). Measured there at QD32 against sleeping at once: polling
//    5 µs before each sleep cut the context switches per I/O from 0.12 to
//    0.02 (fio's) but lost 9-16 % of the IOPS, 20 µs lost 16-17 %, also when
//    polling only a flag in user space: on that 2-vCPU VM a busy loop on
//    one vCPU slowed a copy on the other by 22-33 %. This sleeps more often
//    than fio, whose heavier loop keeps its CPU busy, and is faster.
//  - With many in flight on a fast device (100k completions a second or
//    more), wait for a quarter of them at once (t/io_uring's batch
//    completion; CompletionBatch says why and what it does to the latency
//    figures). Waiting for one at a time woke the worker for nearly every
//    I/O it waited for (RND4K Q32T1 on the RAM loop, AMD EPYC: 0.86-0.90 of
//    lean fio; batched 0.99-1.07). A slower device's batches are of one.
// How a completion is timed: with DEFER_TASKRUN the kernel posts a finished
// request's completion only when this thread enters the kernel to reap
// (every call below does); without it, at the next return from the kernel.
// Each call is followed at once by one clock read, which is the completion
// time of everything that call brought in. This thread never sleeps while
// a completion is ready, and waits for more than one only on a fast device
// with a deep queue, so a completion is stamped no later than the kernel
// finished it plus one turn of this loop (submitting the replacements of
// the previous batch and the user-space bookkeeping of the reap; measured,
// on the order of a microsecond per I/O), and when batching, plus the time
// the rest of its batch took: at most a quarter of the mean latency.
#include "io_buffers.hpp"
#include "../base/errors.hpp"
#include "completion_batch.hpp"
#include "io_worker.hpp"
#include "poll_rule.hpp"
#include "uring_ring.hpp"
#include "write_data.hpp"

#include <liburing.h>

#include <cstring>
#include <vector>

#include <fmt/format.h>

namespace diskbench::engine::detail {

namespace {

// How long to poll for a completion before sleeping. Long enough to cover a
// fast device's I/O (the RAM-backed loop: 10-20 µs at QD1), short enough
// that a disk's milliseconds cost little CPU. Measured on the RAM loop at
// QD1: 20 µs gave more IOPS and fewer context switches than 50 µs.
constexpr std::uint64_t kSpinNs = 20'000;

// Poll only with at most this many requests in flight (see the top of this
// file). Measured on the RAM loop, 4 KiB random reads, polling up to kSpinNs
// against sleeping: QD2 and QD4 +20..80 % IOPS, QD8 even, QD32 -16..-25 %.
constexpr unsigned kPollMaxInFlight = 4;

struct Slot {
    IoRequest request;
    std::byte* data = nullptr; // the slot's buffer, or the spec's for this request
    std::uint64_t submitted_ns = 0;
};

// Hands the queued requests to the kernel and collects the completions it
// has, without sleeping.
int submit_and_collect(io_uring* ring)
{
    return ::io_uring_submit_and_get_events(ring);
}

// Polls for a completion for up to kSpinNs. Returns 1 when one is ready, 0
// when none came in that time, or the kernel's negative error.
int poll_for_completion(io_uring* ring)
{
    const std::uint64_t until = monotonic_ns() + kSpinNs;
    do {
        // io_uring_get_events() runs the deferred completion work, so
        // completions become visible without sleeping.
        if (const int rc = ::io_uring_get_events(ring); rc < 0)
            return rc;
        if (::io_uring_cq_ready(ring) > 0)
            return 1;
    } while (monotonic_ns() < until);
    return 0;
}

// Nothing to submit: returns once at least one completion is ready.
// Polls only with few requests in flight (kPollMaxInFlight), and then only
// while polling pays (PollRule: most recent polls caught their completion).
// Measured at QD1 where waits take 40-60 µs (4 KiB random reads on a
// disk-backed loop device, and in file-profile on ext4 over one): the
// previous rule, poll whenever the last wait had been short, was 4-11 %
// slower than this one, which there sleeps at once.
int wait_for_completion(io_uring* ring, bool spin, bool batch, unsigned in_flight, PollRule& rule,
                        const CompletionBatch& batching)
{
    // Deep queues sleep at once, and their waits say nothing of how a
    // shallow queue's would go: the rule is left as it was.
    if (in_flight <= kPollMaxInFlight && spin && rule.should_poll()) {
        const int polled = poll_for_completion(ring);
        if (polled < 0)
            return polled; // an error (or EINTR, retried) says nothing of the device
        rule.polled(polled == 1);
        if (polled == 1)
            return 0;
    }
    return ::io_uring_submit_and_wait(ring, batch ? batching.wait_count(in_flight) : 1);
}

} // namespace

std::string probe_io_uring()
{
    try {
        UringRing ring(1, RingWishes { false, false, false, false, false, false });
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
    const bool own_data = shared.spec.buffers == nullptr;
    try {
        ring = std::make_unique<UringRing>(depth, RingWishes::from_environment());
        buffers = std::make_unique<IoBuffers>(depth, shared.spec.max_request_bytes, shared.target.memory_alignment);
        ring->register_file(shared.target.fd.get());
        // A benchmark's own buffers (RequestBuffers) are not ours to pin:
        // those requests use plain reads and writes.
        if (own_data) {
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
        outcome.ring_features = ring->features();
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
    const bool spin = ring->features().spin_wait;
    const bool batch = ring->features().batch_wait;
    PollRule poll_rule;
    CompletionBatch batching;
    try {
        while (true) {
            if (!exhausted && !outcome.error && !shared.should_stop(monotonic_ns())) {
                IoRequest request;
                while (!free_slots.empty() && (exhausted = !source.next(request)) == false) {
                    const unsigned slot = free_slots.back();
                    free_slots.pop_back();
                    io_uring_sqe* sqe = ::io_uring_get_sqe(ring->get());
                    std::byte* data = own_data ? buffers->slot(slot) : shared.spec.buffers->buffer_for(request);
                    const bool write = writes(shared.spec, request);
                    if (write && own_data) {
                        if (shared.spec.pattern)
                            shared.spec.pattern->stamp(data, request);
                        else
                            stamp_offsets(data, request.length, request.offset);
                    }
                    ring->prep(sqe, write, fd, data, request.length, request.offset,
                               own_data ? static_cast<int>(slot) : -1);
                    slots[slot].data = data;
                    ::io_uring_sqe_set_data64(sqe, slot);
                    slots[slot].request = request;
                    just_queued.push_back(slot);
                }
            }
            const bool queued = !just_queued.empty();
            in_flight += static_cast<unsigned>(just_queued.size());
            if (in_flight == 0)
                break;

            if (queued) {
                const std::uint64_t submitted_ns = monotonic_ns();
                for (unsigned slot : just_queued)
                    slots[slot].submitted_ns = submitted_ns;
                just_queued.clear();
            }
            int rc;
            do
                rc = queued ? submit_and_collect(ring->get()) : wait_for_completion(ring->get(), spin, batch, in_flight, poll_rule, batching);
            while (rc == -EINTR);
            if (rc < 0)
                throw IoError(Failure { "error-uring-submit", { { "reason", std::strerror(-rc) } } }, -rc);

            // The completion time of everything reaped below (see the top of
            // this file for why it is honest).
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
                if (writes(shared.spec, done.request) && result >= 0
                    && result < static_cast<long>(done.request.length)) {
                    // Rare (a full filesystem, a signal): finish it
                    // synchronously to learn whether and why it fails.
                    const int error_number = finish_short_write(fd, done.data, done.request,
                                                                static_cast<std::uint32_t>(result));
                    result = error_number != 0 ? -static_cast<long>(error_number)
                                               : static_cast<long>(done.request.length);
                    done_ns = monotonic_ns();
                }
                free_slots.push_back(slot);
                if (tolerated_failure(shared.spec, done.request, result)) {
                    ++outcome.failed_operations;
                    outcome.failed_bytes += done.request.length;
                    if (shared.spec.observer)
                        shared.spec.observer->completed(
                            index, IoCompletion { done.request, done.submitted_ns, done_ns, static_cast<int>(-result) });
                    continue;
                }
                if (result != static_cast<long>(done.request.length)) {
                    if (!outcome.error) {
                        outcome.error = std::make_exception_ptr(request_error(shared, done.request, result));
                        shared.abort = true;
                    }
                    continue;
                }
                IoCompletion completion { done.request, done.submitted_ns, done_ns };
                completion.data = done.data;
                outcome.latency.record(completion.latency_ns());
                ++outcome.operations;
                outcome.bytes += done.request.length;
                outcome.last_completion_ns = done_ns;
                if (shared.spec.observer)
                    shared.spec.observer->completed(index, completion);
            }
            ::io_uring_cq_advance(ring->get(), reaped);
            in_flight -= reaped;
            batching.reaped(reaped, completed_ns);
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
