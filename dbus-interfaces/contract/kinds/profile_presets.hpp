// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The test sets of profile and file-profile (their `preset` parameter):
// the daemon runs them, the clients show and describe them (fio lines).

#include <array>
#include <string_view>

namespace diskbench::contract {

struct ProfilePreset {
    std::string_view name, tests;
};

// CrystalDiskMark 8's profiles (KDiskMark has the first two): "default" is
// what it shows first; "peak" its Peak Performance (deep queues); "real-
// world" its Real World Performance (one request at a time, as a desktop
// mostly reads).
inline constexpr std::array profile_presets {
    ProfilePreset { "default", "SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1" },
    ProfilePreset { "nvme", "SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16, RND4K Q1T1" },
    ProfilePreset { "peak", "SEQ1M Q8T1, RND4K Q32T16" },
    ProfilePreset { "real-world", "SEQ1M Q1T1, RND4K Q1T1" },
};

// The tests of the named preset; an unknown name gives the default's.
constexpr std::string_view profile_preset_tests(std::string_view name) noexcept
{
    for (const ProfilePreset& preset : profile_presets)
        if (preset.name == name)
            return preset.tests;
    return profile_presets[0].tests;
}

} // namespace diskbench::contract
