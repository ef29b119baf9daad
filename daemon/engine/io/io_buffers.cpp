// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_buffers.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <new>

namespace diskbench::engine {

namespace {
constexpr std::size_t huge_page = 2 * 1024 * 1024;

std::size_t round_up(std::size_t value, std::size_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}
} // namespace

IoBuffers::IoBuffers(std::size_t slots, std::size_t slot_size, std::size_t alignment)
    : stride_(round_up(slot_size, alignment))
{
    const std::size_t align = std::max(alignment, huge_page);
    size_ = round_up(stride_ * slots, huge_page);
    // Map one alignment more than needed, then give back the unaligned head and the tail.
    const std::size_t mapped = size_ + align;
    void* raw = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        throw std::bad_alloc();
    const auto start = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = round_up(start, align);
    if (aligned > start)
        ::munmap(raw, aligned - start);
    const std::size_t tail = (start + mapped) - (aligned + size_);
    if (tail > 0)
        ::munmap(reinterpret_cast<void*>(aligned + size_), tail);
    base_ = reinterpret_cast<std::byte*>(aligned);
    // Advice only: failure (THP compiled out) leaves ordinary pages.
    ::madvise(base_, size_, MADV_HUGEPAGE);
}

IoBuffers::~IoBuffers()
{
    ::munmap(base_, size_);
}

} // namespace diskbench::engine
