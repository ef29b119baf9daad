// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CrystalDiskMark's unit menu for the Profiles grids: the large figure of
// each cell as MB/s, GB/s, IOPS or mean latency in µs.

#include <array>
#include <optional>
#include <string>
#include <string_view>

namespace diskbench::client {

enum class ProfileUnit { MegabytesPerSecond, GigabytesPerSecond, Iops, Microseconds };

inline constexpr std::array all_profile_units { ProfileUnit::MegabytesPerSecond, ProfileUnit::GigabytesPerSecond,
                                                ProfileUnit::Iops, ProfileUnit::Microseconds };

// The menu's words, N_() strings: translate when shown.
const char* profile_unit_label(ProfileUnit unit) noexcept;
// The names scripts use (the app's profile-unit action): "mb-s", "gb-s",
// "iops", "us"; nullopt for anything else.
std::optional<ProfileUnit> profile_unit_from_name(std::string_view name) noexcept;

// What one test (one direction) measured; any may be unknown yet.
struct ProfileFigures {
    std::optional<double> mb_s, iops, mean_us;
};

// The figure in `unit`, as CrystalDiskMark prints it ("2500.00 MB/s",
// "2.500 GB/s", "12345.67 IOPS", "85.12 µs"), with the locale's decimal
// mark; "–" when it is not known.
std::string profile_figure_text(const ProfileFigures& figures, ProfileUnit unit);

} // namespace diskbench::client
