// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Sizes, rates and times as the engine counts and says them. In base/ (it
// includes no other engine file) so that io/ and storage/ say sizes in
// their messages as the benchmarks do without including the root's
// benchmark_support.hpp.

#include <cstdint>
#include <string>

namespace diskbench::engine {

inline constexpr std::uint64_t KiB = 1024;
inline constexpr std::uint64_t MiB = 1024 * KiB;
inline constexpr std::uint64_t GiB = 1024 * MiB;

std::string format_bytes(std::uint64_t bytes); // "4 KiB", "1 MiB", "512 B"

// Microseconds from nanoseconds, for series and summaries.
inline double to_us(std::uint64_t ns) noexcept { return static_cast<double>(ns) / 1000.0; }
inline double mb_per_s(std::uint64_t bytes, std::uint64_t ns) noexcept
{
    return ns ? static_cast<double>(bytes) / 1e6 / (static_cast<double>(ns) / 1e9) : 0.0;
}

} // namespace diskbench::engine
