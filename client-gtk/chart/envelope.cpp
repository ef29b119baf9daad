// SPDX-License-Identifier: GPL-3.0-or-later
#include "envelope.hpp"

#include <algorithm>

namespace diskbench::client {

std::vector<EnvelopeColumn> envelope(std::span<const SeriesPoint> points, double x_low, double x_high,
                                     std::size_t columns)
{
    std::vector<EnvelopeColumn> out;
    if (columns == 0 || !(x_high > x_low))
        return out;
    const double width = (x_high - x_low) / static_cast<double>(columns);
    EnvelopeColumn current;
    std::size_t current_index = columns; // none yet
    double sum = 0;
    auto close = [&] {
        if (current.count == 0)
            return;
        current.mean = sum / static_cast<double>(current.count);
        out.push_back(current);
    };
    for (const SeriesPoint& point : points) {
        if (point.x < x_low || point.x > x_high)
            continue;
        const auto index = std::min(columns - 1, static_cast<std::size_t>((point.x - x_low) / width));
        if (index != current_index) {
            close();
            current = EnvelopeColumn { x_low + (static_cast<double>(index) + 0.5) * width, point.y, point.y, 0, 0 };
            current_index = index;
            sum = 0;
        }
        current.min = std::min(current.min, point.y);
        current.max = std::max(current.max, point.y);
        sum += point.y;
        ++current.count;
    }
    close();
    return out;
}

} // namespace diskbench::client
