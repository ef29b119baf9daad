// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// io_uring's kernel workers, which the owner's thread budget must count.
// A request the kernel cannot issue without blocking (a device that takes
// no non-blocking submissions, a full device queue) goes to the ring's
// io-wq: kernel threads of this process named iou-wrk-N, by default up to
// min(queue entries, 4 x CPUs) per ring, and per NUMA node before Linux
// 6.4. Uncounted, profile RND4K Q16T64 reserved 64 threads and the daemon
// reached 578, 512 of them io-wq workers (issue 26). Every ring therefore
// sets its io-wq's maximum (IORING_REGISTER_IOWQ_MAX_WORKERS, Linux 5.15;
// a kernel without it gets psync) to this bound, and IoRunner reserves it.
// Internal to the I/O runner; no liburing here.

#include <cstdint>

namespace diskbench::engine::detail {

struct IoWqBound {
    // Workers for requests that finish on their own: reads and writes of
    // files and block devices, all this engine issues. Four keep a device
    // that punts everything busy at depth 4 per ring.
    unsigned bounded = 1;
    // For requests that may wait without end (sockets, pipes): the engine
    // makes none, but 0 would leave the kernel's default (RLIMIT_NPROC).
    unsigned unbounded = 1;
};

inline constexpr unsigned io_wq_bounded_workers = 4;

[[nodiscard]] IoWqBound io_wq_bound(unsigned queue_depth) noexcept;

// The threads one worker with a ring of `queue_depth` may have: its own and
// its io-wq's at most, on every NUMA node (counted per node, as kernels
// before 6.4 apply the bound per node).
[[nodiscard]] std::uint64_t threads_per_ring(unsigned queue_depth) noexcept;

// NUMA nodes online (/sys/devices/system/node/online), 1 when unknown.
[[nodiscard]] unsigned numa_nodes() noexcept;

} // namespace diskbench::engine::detail
