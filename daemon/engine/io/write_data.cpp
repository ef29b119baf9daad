// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_data.hpp"

#include "../base/prng.hpp"

#include <cstring>

namespace diskbench::engine {

void fill_pseudo_random(std::byte* data, std::size_t size, std::uint64_t seed) noexcept
{
    Xoshiro256StarStar rng(seed);
    std::size_t done = 0;
    while (done < size) {
        const std::uint64_t word = rng.next();
        const std::size_t n = std::min(sizeof word, size - done);
        std::memcpy(data + done, &word, n);
        done += n;
    }
}

void stamp_offsets(std::byte* block, std::uint32_t length, std::uint64_t offset) noexcept
{
    constexpr std::uint32_t sector = 512;
    for (std::uint32_t at = 0; at + sizeof offset <= length; at += sector) {
        const std::uint64_t stamp = offset + at;
        std::memcpy(block + at, &stamp, sizeof stamp);
    }
}

} // namespace diskbench::engine
