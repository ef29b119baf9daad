// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which io_uring features a worker's ring used, and which it may try. Kept
// apart from uring_ring.hpp so the runner's public header needs no
// liburing. Internal to the I/O runner.

#include <string>

namespace diskbench::engine::detail {

// The ring features in use; a result reports them (summary key
// "io_uring_features") so two results say whether they ran alike.
struct RingFeatures {
    // IORING_SETUP_DEFER_TASKRUN (with SINGLE_ISSUER and COOP_TASKRUN):
    // completions are posted when this thread enters the kernel to reap,
    // not by interrupting it.
    bool defer_taskrun = false;
    // io_uring_register_ring_fd(): io_uring_enter() skips the fd table
    // lookup (fdget/fdput) on every call.
    bool registered_ring = false;
    // The target's fd registered: no fd lookup and reference per request.
    bool fixed_file = false;
    // The I/O buffers registered (pinned once): no get_user_pages per
    // O_DIRECT request (gup_fast_fallback was 4-6 % of the samples).
    bool fixed_buffers = false;
    // Not a ring feature but how the worker waits: it polls for a
    // completion briefly before sleeping (uring_worker.cpp says why).
    bool spin_wait = false;
    // Also how the worker waits: with a deep queue on a fast device, for
    // a quarter of those in flight at once (completion_batch.hpp).
    bool batch_wait = false;

    // Comma-separated names of the features in use, "plain" when none.
    [[nodiscard]] std::string describe() const;
    // Fewer features means a plainer way, so the union of several runs'
    // features would overstate: this keeps only what both used.
    [[nodiscard]] RingFeatures common_with(const RingFeatures& other) const noexcept;
};

// Features the ring must not try. Only tests and the perf benchmark turn
// any off, through the environment variable DISKBENCH_IO_URING_OFF (a
// comma-separated list of the names RingFeatures::describe() uses), to
// force the fallback paths the kernel here would never take, and to measure
// what each feature is worth. Read afresh for every ring.
struct RingWishes {
    bool defer_taskrun = true;
    bool registered_ring = true;
    bool fixed_file = true;
    bool fixed_buffers = true;
    bool spin_wait = true;
    bool batch_wait = true;

    static RingWishes from_environment();
};

} // namespace diskbench::engine::detail
