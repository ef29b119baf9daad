// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

namespace diskbench::engine {

// A heap buffer aligned for O_DIRECT. The kernel rejects direct I/O whose
// memory address is not aligned to the device's logical block size, so every
// I/O buffer in the engine comes from here.
class AlignedBuffer {
public:
    AlignedBuffer() = default;
    AlignedBuffer(std::size_t size, std::size_t alignment)
        : size_(size)
    {
        void* memory = nullptr;
        if (::posix_memalign(&memory, alignment, size) != 0)
            throw std::bad_alloc();
        data_.reset(static_cast<std::byte*>(memory));
    }

    [[nodiscard]] std::byte* data() const noexcept { return data_.get(); }
    [[nodiscard]] std::size_t size() const noexcept { return size_; }

private:
    struct FreeDeleter {
        void operator()(std::byte* p) const noexcept { std::free(p); }
    };
    std::unique_ptr<std::byte, FreeDeleter> data_;
    std::size_t size_ = 0;
};

} // namespace diskbench::engine
