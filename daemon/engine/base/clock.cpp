// SPDX-License-Identifier: GPL-3.0-or-later
#include "clock.hpp"

#include <sys/resource.h>

namespace diskbench::engine {

ThreadCpuTime thread_cpu_time() noexcept
{
    rusage usage {};
    if (::getrusage(RUSAGE_THREAD, &usage) != 0)
        return {};
    auto to_ns = [](const timeval& tv) {
        return static_cast<std::uint64_t>(tv.tv_sec) * 1'000'000'000ULL + static_cast<std::uint64_t>(tv.tv_usec) * 1000ULL;
    };
    return { to_ns(usage.ru_utime), to_ns(usage.ru_stime) };
}

} // namespace diskbench::engine
