// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>

namespace diskbench::engine {

// The I/O buffers of one worker: `slots` buffers of `slot_size` bytes cut
// from one fresh anonymous mapping that is 2 MiB aligned and marked
// MADV_HUGEPAGE.
//
// Why: a direct read's buffer becomes one segment per physically contiguous
// run of memory. In 4 KiB pages a 1 MiB buffer is 256 segments, more than
// many queues take (a loop device: 128), so the kernel splits every 1 MiB
// read in two and the device sees half-size requests. fio's buffers did not
// split (measured: 256 loop requests for 256 reads against our 512), so ours
// must not either. In a transparent huge page a slot is one segment. The
// mapping is our own (not malloc's) because malloc reuses memory already
// faulted in 4 KiB pages, which the hint no longer changes. Where THP is off
// the hint is ignored and the buffers still work.
class IoBuffers {
public:
    IoBuffers(std::size_t slots, std::size_t slot_size, std::size_t alignment);
    ~IoBuffers();
    IoBuffers(const IoBuffers&) = delete;
    IoBuffers& operator=(const IoBuffers&) = delete;

    [[nodiscard]] std::byte* slot(std::size_t index) const noexcept { return base_ + index * stride_; }

private:
    std::size_t stride_;
    std::size_t size_ = 0;
    std::byte* base_ = nullptr;
};

} // namespace diskbench::engine
