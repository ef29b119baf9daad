// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/value_format.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace diskbench::client {

namespace {

// Digits after the point so that values `step` apart still read differently.
int decimals_for(double value, double step)
{
    if (step <= 0)
        return std::abs(value) < 10 ? 1 : 0;
    return std::clamp(static_cast<int>(std::ceil(-std::log10(step))), 0, 3);
}

std::string with_unit(double value, int decimals, const char* unit)
{
    return fmt::format("{:.{}f} {}", value, decimals, unit);
}

} // namespace

Unit unit_from_name(std::string_view name) noexcept
{
    if (name == "B")
        return Unit::Bytes;
    if (name == "MB/s")
        return Unit::MegabytesPerSecond;
    if (name == "IOPS")
        return Unit::Iops;
    if (name == "us")
        return Unit::Microseconds;
    if (name == "depth")
        return Unit::QueueDepth;
    if (name == "s")
        return Unit::Seconds;
    if (name == "op/s")
        return Unit::OperationsPerSecond;
    if (name == "°C")
        return Unit::Celsius;
    return Unit::Plain;
}

std::string format_value(double value, Unit unit, double step)
{
    switch (unit) {
    case Unit::Bytes: {
        /* TRANSLATORS: binary byte units, as in "512 B", "4 KiB" */
        static const char* const names[] = { N_("B"), N_("KiB"), N_("MiB"), N_("GiB"), N_("TiB"), N_("PiB") };
        int index = 0;
        double scaled = value;
        double scaled_step = step;
        while (std::abs(scaled) >= 1024 && index < 5) {
            scaled /= 1024;
            scaled_step /= 1024;
            ++index;
        }
        const bool whole = scaled == std::floor(scaled);
        return with_unit(scaled, whole ? 0 : decimals_for(scaled, scaled_step), _(names[index]));
    }
    case Unit::MegabytesPerSecond:
        /* TRANSLATORS: megabytes (10^6 bytes) per second */
        return with_unit(value, decimals_for(value, step), _("MB/s"));
    case Unit::Iops:
        if (std::abs(value) >= 10'000)
            /* TRANSLATORS: thousands of I/O operations per second, as in "12.3k IOPS" */
            return fmt::format("{:.1f}k {}", value / 1000, _("IOPS"));
        return with_unit(value, decimals_for(value, step), _("IOPS"));
    case Unit::Microseconds:
        if (std::abs(value) >= 1'000'000)
            /* TRANSLATORS: seconds */
            return with_unit(value / 1e6, 2, _("s"));
        if (std::abs(value) >= 1000)
            /* TRANSLATORS: milliseconds */
            return with_unit(value / 1000, step > 0 ? decimals_for(value / 1000, step / 1000) : 1, _("ms"));
        /* TRANSLATORS: microseconds */
        return with_unit(value, decimals_for(value, step), _("µs"));
    case Unit::QueueDepth:
        /* TRANSLATORS: queue depth, as in "QD 32" */
        return fmt::format("{} {:.0f}", _("QD"), value);
    case Unit::Seconds:
        if (std::abs(value) != 0 && std::abs(value) < 1)
            return format_value(value * 1e6, Unit::Microseconds, step * 1e6);
        /* TRANSLATORS: seconds */
        return with_unit(value, decimals_for(value, step), _("s"));
    case Unit::OperationsPerSecond:
        if (std::abs(value) >= 10'000)
            /* TRANSLATORS: thousands of file operations per second, as in "12.3k op/s" */
            return fmt::format("{:.1f}k {}", value / 1000, _("op/s"));
        /* TRANSLATORS: file operations (create, open, delete...) per second */
        return with_unit(value, decimals_for(value, step), _("op/s"));
    case Unit::Celsius:
        /* TRANSLATORS: degrees Celsius, as in "45 °C" (a drive's temperature) */
        return with_unit(value, decimals_for(value, step), _("°C"));
    case Unit::Plain:
        break;
    }
    return fmt::format("{:g}", value);
}

} // namespace diskbench::client
