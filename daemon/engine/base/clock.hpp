// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <ctime>

namespace diskbench::engine {

// Nanoseconds on CLOCK_MONOTONIC: immune to wall-clock steps, comparable
// across threads. Every latency and interval in the engine uses it.
inline std::uint64_t monotonic_ns() noexcept
{
    timespec ts {};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

// CPU time (user + system) consumed by the calling thread, in nanoseconds.
struct ThreadCpuTime {
    std::uint64_t user_ns = 0;
    std::uint64_t system_ns = 0;
};
ThreadCpuTime thread_cpu_time() noexcept;

} // namespace diskbench::engine
