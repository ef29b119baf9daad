// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_wq_bound.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>
#include <string_view>

namespace diskbench::engine::detail {

namespace {

// "0", "0-1", "0,2-3": how many nodes the list names; 0 when unreadable.
unsigned count_in_list(std::string_view list)
{
    unsigned count = 0;
    while (!list.empty()) {
        const std::size_t comma = list.find(',');
        const std::string_view range = list.substr(0, comma);
        unsigned first = 0, last = 0;
        const auto [end, error] = std::from_chars(range.data(), range.data() + range.size(), first);
        if (error != std::errc())
            return 0;
        last = first;
        if (end != range.data() + range.size()) {
            if (*end != '-')
                return 0;
            const auto [end2, error2] = std::from_chars(end + 1, range.data() + range.size(), last);
            if (error2 != std::errc() || end2 != range.data() + range.size() || last < first)
                return 0;
        }
        count += last - first + 1;
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
    }
    return count;
}

unsigned read_numa_nodes() noexcept
{
    try {
        std::ifstream file("/sys/devices/system/node/online");
        std::string line;
        if (!std::getline(file, line))
            return 1;
        return std::max(1u, count_in_list(line));
    } catch (...) {
        return 1;
    }
}

} // namespace

IoWqBound io_wq_bound(unsigned queue_depth) noexcept
{
    return { std::clamp(queue_depth, 1u, io_wq_bounded_workers), 1 };
}

unsigned numa_nodes() noexcept
{
    static const unsigned nodes = read_numa_nodes();
    return nodes;
}

std::uint64_t threads_per_ring(unsigned queue_depth) noexcept
{
    const IoWqBound bound = io_wq_bound(queue_depth);
    return 1 + std::uint64_t { bound.bounded + bound.unbounded } * numa_nodes();
}

} // namespace diskbench::engine::detail
