// SPDX-License-Identifier: GPL-3.0-or-later
#include "prng.hpp"

namespace diskbench::engine {

namespace {
// GCC and Clang provide 128-bit integers; __extension__ says we know it is
// not ISO C++ (-Wpedantic).
__extension__ typedef unsigned __int128 uint128;

constexpr std::uint64_t rotl(std::uint64_t x, int k) noexcept
{
    return (x << k) | (x >> (64 - k));
}
} // namespace

std::uint64_t SplitMix64::next() noexcept
{
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

Xoshiro256StarStar::Xoshiro256StarStar(std::uint64_t seed) noexcept
{
    SplitMix64 expander(seed);
    for (auto& word : s_)
        word = expander.next();
}

std::uint64_t Xoshiro256StarStar::next() noexcept
{
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
}

std::uint64_t Xoshiro256StarStar::below(std::uint64_t bound) noexcept
{
    // Lemire, "Fast Random Integer Generation in an Interval" (2019).
    uint128 m = static_cast<uint128>(next()) * bound;
    auto low = static_cast<std::uint64_t>(m);
    if (low < bound) {
        const std::uint64_t threshold = (0 - bound) % bound;
        while (low < threshold) {
            m = static_cast<uint128>(next()) * bound;
            low = static_cast<std::uint64_t>(m);
        }
    }
    return static_cast<std::uint64_t>(m >> 64);
}

} // namespace diskbench::engine
