// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_options.hpp"

#include "profile_tests.hpp"

#include <chrono>
#include <thread>

namespace diskbench::engine::benchmarks {

ParamSpec preset_param()
{
    return text_param("preset",
                      "Which tests to run when `tests` is empty, CrystalDiskMark 8's profiles: default (SEQ1M Q8T1, "
                      "SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1), nvme (SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K "
                      "Q1T1), peak (SEQ1M Q8T1, RND4K Q32T16) or real-world (SEQ1M Q1T1, RND4K Q1T1).",
                      "default", profile_presets());
}

ParamSpec interval_param(double default_seconds)
{
    return real_param("interval_s",
                      "Seconds of rest between two tests (not before the first), so that a drive's write cache "
                      "and its temperature recover, as CrystalDiskMark's Interval.",
                      default_seconds, 0, 600);
}

bool rest_between_tests(const CancelToken& cancel, double seconds)
{
    using clock = std::chrono::steady_clock;
    const auto end = clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
    while (clock::now() < end) {
        if (cancel.cancelled())
            return false;
        std::this_thread::sleep_for(std::min<clock::duration>(std::chrono::milliseconds(50), end - clock::now()));
    }
    return !cancel.cancelled();
}

} // namespace diskbench::engine::benchmarks
