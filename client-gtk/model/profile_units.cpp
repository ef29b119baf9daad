// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_units.hpp"

#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

const char* profile_unit_label(ProfileUnit unit) noexcept
{
    // TRANSLATORS: the Profiles grid's unit menu (CrystalDiskMark's): megabytes and gigabytes per second,
    // operations per second, mean latency in microseconds
    switch (unit) {
    case ProfileUnit::MegabytesPerSecond:
        return N_("MB/s");
    case ProfileUnit::GigabytesPerSecond:
        return N_("GB/s");
    case ProfileUnit::Iops:
        return N_("IOPS");
    case ProfileUnit::Microseconds:
        return N_("µs");
    }
    return "";
}

std::optional<ProfileUnit> profile_unit_from_name(std::string_view name) noexcept
{
    constexpr std::string_view names[] = { "mb-s", "gb-s", "iops", "us" };
    for (std::size_t i = 0; i < std::size(names); ++i)
        if (names[i] == name)
            return all_profile_units[i];
    return std::nullopt;
}

std::string profile_figure_text(const ProfileFigures& f, ProfileUnit unit)
{
    // printf's %f follows LC_NUMERIC: "2,500 GB/s" in Czech, as the rest of the app.
    switch (unit) {
    case ProfileUnit::MegabytesPerSecond:
        /* TRANSLATORS: a Profiles figure, 10^6 bytes per second */
        return f.mb_s ? printf_text(_("%.2f MB/s"), *f.mb_s) : "–";
    case ProfileUnit::GigabytesPerSecond:
        /* TRANSLATORS: a Profiles figure, 10^9 bytes per second */
        return f.mb_s ? printf_text(_("%.3f GB/s"), *f.mb_s / 1000.0) : "–";
    case ProfileUnit::Iops:
        /* TRANSLATORS: a Profiles figure, operations per second */
        return f.iops ? printf_text(_("%.2f IOPS"), *f.iops) : "–";
    case ProfileUnit::Microseconds:
        /* TRANSLATORS: a Profiles figure, the mean latency in microseconds */
        return f.mean_us ? printf_text(_("%.2f µs"), *f.mean_us) : "–";
    }
    return "–";
}

} // namespace diskbench::client
