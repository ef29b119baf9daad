// SPDX-License-Identifier: GPL-3.0-or-later
#include "uring_ring.hpp"

#include "../base/errors.hpp"
#include "io_wq_bound.hpp"

#include <cstring>

#include <fmt/format.h>

namespace diskbench::engine::detail {

UringRing::UringRing(unsigned entries, const RingWishes& wishes)
    : wishes_(wishes)
{
    int rc = -EINVAL;
    if (wishes.defer_taskrun) {
        // One thread submits and reaps, so the kernel may leave completion
        // work until that thread asks for completions instead of
        // interrupting it (fio 3.33 sets the same three flags). Kernels
        // before 6.1 refuse them with EINVAL and get a plain ring.
        rc = ::io_uring_queue_init(entries, &ring_,
                                   IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER
                                       | IORING_SETUP_DEFER_TASKRUN);
        features_.defer_taskrun = rc == 0;
    }
    if (rc == -EINVAL)
        rc = ::io_uring_queue_init(entries, &ring_, 0);
    if (rc < 0)
        throw Error(fmt::format("io_uring setup failed: {}", std::strerror(-rc)));
    // Not best effort: the owner's budget counts this bound, and without it
    // the kernel may start min(entries, 4 x CPUs) threads for this ring
    // (io_wq_bound.hpp). A kernel without it (before 5.15) gets psync.
    const IoWqBound bound = io_wq_bound(entries);
    unsigned workers[2] = { bound.bounded, bound.unbounded };
    rc = ::io_uring_register_iowq_max_workers(&ring_, workers);
    if (rc < 0) {
        ::io_uring_queue_exit(&ring_);
        throw Error(fmt::format("io_uring cannot bound its kernel workers (IORING_REGISTER_IOWQ_MAX_WORKERS, "
                                "Linux 5.15): {}",
                                std::strerror(-rc)));
    }
    // Returns how many fds it registered (1); before 5.18, EINVAL.
    if (wishes.registered_ring)
        features_.registered_ring = ::io_uring_register_ring_fd(&ring_) == 1;
    features_.spin_wait = wishes.spin_wait;
    features_.batch_wait = wishes.batch_wait;
}

UringRing::~UringRing()
{
    // Unregisters the ring fd, the file and the buffers with the ring.
    ::io_uring_queue_exit(&ring_);
}

void UringRing::register_file(int fd)
{
    if (wishes_.fixed_file && !features_.fixed_file)
        features_.fixed_file = ::io_uring_register_files(&ring_, &fd, 1) == 0;
}

void UringRing::register_buffers(std::span<const iovec> buffers)
{
    // Pinning counts against RLIMIT_MEMLOCK for users without
    // CAP_IPC_LOCK: an unprivileged diskbench-engine with deep queues of
    // large blocks may be refused (ENOMEM) and then reads into plain memory.
    if (wishes_.fixed_buffers && !features_.fixed_buffers && !buffers.empty())
        features_.fixed_buffers
            = ::io_uring_register_buffers(&ring_, buffers.data(), static_cast<unsigned>(buffers.size())) == 0;
}

void UringRing::prep(io_uring_sqe* sqe, bool write, int fd, std::byte* data, unsigned length, std::uint64_t offset,
                     int buffer_index) const noexcept
{
    // A registered file is named by its index in the table (0, the only one).
    const int file = features_.fixed_file ? 0 : fd;
    if (features_.fixed_buffers && buffer_index >= 0) {
        if (write)
            ::io_uring_prep_write_fixed(sqe, file, data, length, offset, buffer_index);
        else
            ::io_uring_prep_read_fixed(sqe, file, data, length, offset, buffer_index);
    } else if (write) {
        ::io_uring_prep_write(sqe, file, data, length, offset);
    } else {
        ::io_uring_prep_read(sqe, file, data, length, offset);
    }
    if (features_.fixed_file)
        sqe->flags |= IOSQE_FIXED_FILE;
}

} // namespace diskbench::engine::detail
