// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_info.hpp"

#include <sys/utsname.h>

namespace diskbench::service {

std::string stack_line(const system::LayerFacts& layers)
{
    std::string line;
    for (const auto& layer : layers.stack)
        line += (line.empty() ? "" : " → ") + layer;
    if (!layers.link.empty())
        line += (line.empty() ? "" : ", ") + layers.link;
    return line;
}

VariantMap device_info(const system::DeviceFacts& facts)
{
    VariantMap info {
        { "node", sdbus::Variant(facts.node) },
        { "model", sdbus::Variant(facts.model) },
        { "vendor", sdbus::Variant(facts.vendor) },
        { "serial", sdbus::Variant(facts.serial) },
        { "wwn", sdbus::Variant(facts.wwn) },
        { "by_id", sdbus::Variant(facts.by_id) },
        { "revision", sdbus::Variant(facts.revision) },
        { "size", sdbus::Variant(facts.size) },
        { "logical_block_size", sdbus::Variant(facts.queue.logical_block_size) },
        { "physical_block_size", sdbus::Variant(facts.queue.physical_block_size) },
        { "rotational", sdbus::Variant(facts.queue.rotational) },
        { "rotation_rate", sdbus::Variant(facts.rotation_rate) },
        { "removable", sdbus::Variant(facts.removable) },
        { "connection_bus", sdbus::Variant(facts.connection_bus) },
        { "scheduler", sdbus::Variant(facts.queue.scheduler) },
        { "max_sectors_kib", sdbus::Variant(facts.queue.max_sectors_kib) },
        { "write_cache", sdbus::Variant(facts.queue.write_cache) },
        { "link", sdbus::Variant(facts.layers.link) },
        { "link_limit_mb_s", sdbus::Variant(facts.layers.link_limit_mb_s) },
        { "stack", sdbus::Variant(facts.layers.stack) },
        { "stack_line", sdbus::Variant(stack_line(facts.layers)) },
    };
    info.merge(system_info());
    return info;
}

VariantMap system_info()
{
    VariantMap info;
    utsname system {};
    if (::uname(&system) == 0) {
        info.emplace("kernel", sdbus::Variant(std::string(system.release)));
        info.emplace("machine", sdbus::Variant(std::string(system.machine)));
    }
    return info;
}

} // namespace diskbench::service
