// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One io_uring set up the way the fastest tools drive it (fio's io_uring
// engine with --fixedbufs --registerfiles, its t/io_uring tool), each step
// best effort: a kernel, a seccomp filter or a memlock limit that refuses a
// feature leaves the plain way in place, and features() says what ran.
// Internal to the I/O runner.

#include "ring_features.hpp"

#include <liburing.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include <sys/uio.h>

namespace diskbench::engine::detail {

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
