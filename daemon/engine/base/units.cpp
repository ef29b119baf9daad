// SPDX-License-Identifier: GPL-3.0-or-later
#include "units.hpp"

#include <fmt/format.h>

namespace diskbench::engine {

std::string format_bytes(std::uint64_t bytes)
{
    static constexpr const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    unsigned unit = 0;
    double value = static_cast<double>(bytes);
    while (value >= 1024 && unit < 4) {
        value /= 1024;
        ++unit;
    }
    if (value == static_cast<double>(static_cast<std::uint64_t>(value)))
        return fmt::format("{} {}", static_cast<std::uint64_t>(value), units[unit]);
    return fmt::format("{:.1f} {}", value, units[unit]);
}

} // namespace diskbench::engine
