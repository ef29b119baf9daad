// SPDX-License-Identifier: GPL-3.0-or-later
#include "disk_activity.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

namespace diskbench::cli {

std::string read_diskstats()
{
    std::ifstream in("/proc/diskstats");
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::optional<double> busy_share(const std::string& diskstats_before, const std::string& diskstats_after,
                                 const std::string& device_name, double window_ms)
{
    // major minor name reads merged sectors ms writes merged sectors ms
    // in_flight io_ticks ...: io_ticks is the 10th figure after the name.
    const auto io_ticks = [&](const std::string& diskstats) -> std::optional<double> {
        std::istringstream in(diskstats);
        for (std::string line; std::getline(in, line);) {
            std::istringstream fields(line);
            std::string major, minor, name;
            if (!(fields >> major >> minor >> name) || name != device_name)
                continue;
            double value = 0;
            for (int i = 0; i < 10; ++i)
                if (!(fields >> value))
                    return std::nullopt;
            return value;
        }
        return std::nullopt;
    };
    const auto before = io_ticks(diskstats_before);
    const auto after = io_ticks(diskstats_after);
    if (!before || !after || window_ms <= 0)
        return std::nullopt;
    // io_ticks is a 32-bit counter on some kernels: a wrap reads as "idle"
    // for one window rather than as a huge figure.
    return std::clamp((*after - *before) / window_ms, 0.0, 1.0);
}

} // namespace diskbench::cli
