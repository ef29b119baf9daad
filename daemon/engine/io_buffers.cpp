// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_buffers.hpp"

#include <sys/mman.h>

#include <algorithm>

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
    , region_(round_up(stride_ * slots, huge_page), std::max(alignment, huge_page))
{
    // Advice only: failure (THP compiled out) leaves ordinary pages.
    ::madvise(region_.data(), region_.size(), MADV_HUGEPAGE);
}

} // namespace diskbench::engine
