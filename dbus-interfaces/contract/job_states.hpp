// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The values of Job.State and of a result file's "state": a job is
// running until it ends in exactly one of the other three.

#include <string_view>

namespace diskbench::contract::job_states {

inline constexpr std::string_view running = "running";
inline constexpr std::string_view finished = "finished";
inline constexpr std::string_view failed = "failed";
inline constexpr std::string_view cancelled = "cancelled";

// Finished, failed or cancelled: no more samples will change its series.
[[nodiscard]] constexpr bool ended(std::string_view state) noexcept
{
    return state == finished || state == failed || state == cancelled;
}

} // namespace diskbench::contract::job_states
