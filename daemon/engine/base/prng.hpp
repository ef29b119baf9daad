// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>

namespace diskbench::engine {

// SplitMix64 (Steele, Lea, Flood 2014), used only to expand a 64-bit seed
// into the xoshiro state, as its authors recommend.
class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) noexcept : state_(seed) {}
    std::uint64_t next() noexcept;

private:
    std::uint64_t state_;
};

// xoshiro256** 1.0 (Blackman, Vigna 2018). The benchmarks draw every offset
// from it instead of libc's random(): the algorithm is fixed and written out
// here, so the same seed gives the same offsets on every machine, compiler
// and libc, which makes two runs of a benchmark comparable (tests pin golden
// values).
class Xoshiro256StarStar {
public:
    explicit Xoshiro256StarStar(std::uint64_t seed) noexcept;

    std::uint64_t next() noexcept;

    // Uniform in [0, bound) without modulo bias (Lemire's multiply-shift with
    // rejection); bound must be > 0. Deterministic: integer arithmetic only.
    std::uint64_t below(std::uint64_t bound) noexcept;

private:
    std::array<std::uint64_t, 4> s_ {};
};

// The seed the benchmarks use when the caller gives none.
inline constexpr std::uint64_t default_seed = 0x6469736B62656E63ULL; // "diskbenc"

} // namespace diskbench::engine
