#pragma once
// How much slower than a normal build this test runs: meson's sanitize,
// tsan and memcheck setups (tests/meson.build) set
// DISKBENCH_TEST_TIMEOUT_MULTIPLIER. Bounds that say "promptly" (a cancel
// answered within 300 ms) scale with it; they check responsiveness, not
// speed, and an instrumented build is several times slower everywhere.
#include <chrono>
#include <cstdlib>
#include <string>

inline double test_slowdown()
{
    const char* text = std::getenv("DISKBENCH_TEST_TIMEOUT_MULTIPLIER");
    if (!text)
        return 1.0;
    try {
        const double factor = std::stod(text);
        return factor >= 1.0 ? factor : 1.0;
    } catch (const std::exception&) {
        return 1.0;
    }
}

inline std::chrono::milliseconds prompt_bound(int normal_ms)
{
    return std::chrono::milliseconds(static_cast<long>(normal_ms * test_slowdown()));
}
