// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One io_uring set up the way the fastest tools drive it (fio's io_uring
// engine with --fixedbufs --registerfiles, its t/io_uring tool), each step
// best effort: a kernel, a seccomp filter or a memlock limit that refuses a
// feature leaves the plain way in place, and features() says what ran.
// Internal to the I/O runner.

#include <liburing.h>

#include <span>
#include <string>

#include <sys/uio.h>

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

    static RingWishes from_environment();
};

class UringRing {
public:
    // Throws Error when not even a plain ring can be set up.
    UringRing(unsigned entries, const RingWishes& wishes);
    ~UringRing();
    UringRing(const UringRing&) = delete;
    UringRing& operator=(const UringRing&) = delete;

    // Each registration is tried once and kept only when the kernel takes it.
    void register_file(int fd);
    void register_buffers(std::span<const iovec> buffers);

    [[nodiscard]] io_uring* get() noexcept { return &ring_; }
    [[nodiscard]] const RingFeatures& features() const noexcept { return features_; }

    // A read or write of `length` bytes at `offset` into/from `data`.
    // `buffer_index` is the registered buffer `data` lies in, or -1 for
    // memory that is not registered (a benchmark's own buffers).
    void prep(io_uring_sqe* sqe, bool write, int fd, std::byte* data, unsigned length, std::uint64_t offset,
              int buffer_index) const noexcept;

private:
    io_uring ring_ {};
    RingWishes wishes_;
    RingFeatures features_;
};

} // namespace diskbench::engine::detail
