// SPDX-License-Identifier: GPL-3.0-or-later
#include "ring_features.hpp"

#include <cstdlib>
#include <string_view>

namespace diskbench::engine::detail {

std::string RingFeatures::describe() const
{
    std::string names;
    auto add = [&](bool on, std::string_view name) {
        if (!on)
            return;
        if (!names.empty())
            names += ',';
        names += name;
    };
    add(defer_taskrun, "defer_taskrun");
    add(registered_ring, "registered_ring");
    add(fixed_file, "fixed_file");
    add(fixed_buffers, "fixed_buffers");
    add(spin_wait, "spin_wait");
    add(batch_wait, "batch_wait");
    return names.empty() ? "plain" : names;
}

RingFeatures RingFeatures::common_with(const RingFeatures& other) const noexcept
{
    return { defer_taskrun && other.defer_taskrun, registered_ring && other.registered_ring,
             fixed_file && other.fixed_file, fixed_buffers && other.fixed_buffers, spin_wait && other.spin_wait,
             batch_wait && other.batch_wait };
}

RingWishes RingWishes::from_environment()
{
    RingWishes wishes;
    const char* off = std::getenv("DISKBENCH_IO_URING_OFF");
    if (!off)
        return wishes;
    std::string_view rest(off);
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        const std::string_view name = rest.substr(0, comma);
        if (name == "defer_taskrun")
            wishes.defer_taskrun = false;
        else if (name == "registered_ring")
            wishes.registered_ring = false;
        else if (name == "fixed_file")
            wishes.fixed_file = false;
        else if (name == "fixed_buffers")
            wishes.fixed_buffers = false;
        else if (name == "spin_wait")
            wishes.spin_wait = false;
        else if (name == "batch_wait")
            wishes.batch_wait = false;
        else if (name == "all")
            wishes = { false, false, false, false, false, false };
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return wishes;
}

} // namespace diskbench::engine::detail
