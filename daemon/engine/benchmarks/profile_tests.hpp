// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::engine::benchmarks {

// One CrystalDiskMark-style test, written the way its users know it:
// "SEQ1M Q8T1" = sequential 1 MiB reads, 8 in flight per thread, 1 thread;
// "RND4K Q32T16" = random 4 KiB reads, 32 in flight on each of 16 threads.
struct ProfileTest {
    bool random = false;
    std::uint32_t block = 0;
    unsigned queue_depth = 1;
    unsigned threads = 1;

    [[nodiscard]] std::string label() const;      // "SEQ1M Q8T1"
    [[nodiscard]] std::string summary_key() const; // "seq1m_q8t1"
};

// Parses one test; nullopt when it does not follow the pattern
// (SEQ|RND)<n>(K|M) Q<n>T<n> with n >= 1, QD <= 1024, threads <= 64.
std::optional<ProfileTest> parse_profile_test(std::string_view text);

// The most tests one profile job runs.
inline constexpr std::size_t max_profile_tests = 32;

// Parses a comma-separated list; nullopt when any entry is bad or it is empty.
std::optional<std::vector<ProfileTest>> parse_profile_tests(std::string_view text);

// The tests of the named preset (contract/kinds/profile_presets.hpp);
// anything else gives the default's.
std::string_view preset_tests(std::string_view preset);
// The preset names, for the parameter's choices.
std::vector<std::string_view> profile_presets();

} // namespace diskbench::engine::benchmarks
