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
    // The drive's health when the run started, so a later result can say
    // whether its bad sectors grew.
    // An NVMe drive's as "nvme_" + its Health key.
    if (facts.smart.known && facts.smart.nvme) {
        info.emplace("smart_failing", sdbus::Variant(facts.smart.failing));
        info.emplace("smart_source", sdbus::Variant(facts.smart.source));
        for (auto& [key, value] : nvme_health_keys(*facts.smart.nvme))
            info.emplace("nvme_" + key, std::move(value));
    } else if (facts.smart.known) {
        info.emplace("smart_failing", sdbus::Variant(facts.smart.failing));
        info.emplace("smart_source", sdbus::Variant(facts.smart.source));
        info.emplace("smart_bad_sectors", sdbus::Variant(facts.smart.bad_sectors));
        info.emplace("smart_power_on_seconds", sdbus::Variant(facts.smart.power_on_seconds));
        info.emplace("smart_attributes_failing", sdbus::Variant(facts.smart.attributes_failing));
        for (const auto& [key, value] : smart_count_keys(facts.smart.counts))
            info.emplace("smart_" + key, sdbus::Variant(value));
    }
    info.merge(system_info());
    return info;
}

std::map<std::string, std::int64_t> smart_count_keys(const system::SmartCounts& counts)
{
    static const std::map<std::uint8_t, const char*> names {
        { 5, "reallocated_sectors" },      { 187, "reported_uncorrectable" }, { 188, "command_timeouts" },
        { 197, "pending_sectors" },        { 198, "offline_uncorrectable" },  { 199, "crc_errors" },
    };
    std::map<std::string, std::int64_t> keys;
    for (const auto& [id, count] : counts)
        if (const auto name = names.find(id); name != names.end())
            keys.emplace(name->second, count);
    return keys;
}

std::map<std::string, sdbus::Variant> nvme_health_keys(const system::NvmeHealth& nvme)
{
    // Data units are thousands of 512-byte blocks (NVMe 2.0, figure 207):
    // published in bytes, saturated rather than wrapped.
    const auto bytes = [](std::uint64_t units) {
        constexpr std::uint64_t unit = 512'000;
        return units > UINT64_MAX / unit ? UINT64_MAX : units * unit;
    };
    std::map<std::string, sdbus::Variant> keys {
        { "critical_warning", sdbus::Variant(static_cast<std::uint32_t>(nvme.critical_warning)) },
        { "critical_warning_text", sdbus::Variant(system::nvme_warning_names(nvme.critical_warning)) },
        { "temperature_celsius", sdbus::Variant(nvme.temperature_celsius) },
        { "available_spare_percent", sdbus::Variant(static_cast<std::uint32_t>(nvme.available_spare)) },
        { "available_spare_threshold_percent",
          sdbus::Variant(static_cast<std::uint32_t>(nvme.available_spare_threshold)) },
        { "percentage_used", sdbus::Variant(static_cast<std::uint32_t>(nvme.percentage_used)) },
        { "data_read_bytes", sdbus::Variant(bytes(nvme.data_units_read)) },
        { "data_written_bytes", sdbus::Variant(bytes(nvme.data_units_written)) },
        { "power_on_hours", sdbus::Variant(nvme.power_on_hours) },
        { "power_cycles", sdbus::Variant(nvme.power_cycles) },
        { "unsafe_shutdowns", sdbus::Variant(nvme.unsafe_shutdowns) },
        { "media_errors", sdbus::Variant(nvme.media_errors) },
        { "error_log_entries", sdbus::Variant(nvme.error_log_entries) },
    };
    if (nvme.warning_temperature_celsius > 0)
        keys.emplace("warning_temperature_celsius", sdbus::Variant(nvme.warning_temperature_celsius));
    if (nvme.critical_temperature_celsius > 0)
        keys.emplace("critical_temperature_celsius", sdbus::Variant(nvme.critical_temperature_celsius));
    return keys;
}

VariantMap health_info(const system::DeviceFacts::SmartHealth& smart)
{
    if (!smart.known)
        return {};
    VariantMap health {
        { "failing", sdbus::Variant(smart.failing) },
        { "power_on_seconds", sdbus::Variant(smart.power_on_seconds) },
        { "source", sdbus::Variant(smart.source) },
    };
    if (smart.nvme) {
        health.merge(nvme_health_keys(*smart.nvme));
        return health;
    }
    health.emplace("bad_sectors", sdbus::Variant(smart.bad_sectors));
    health.emplace("attributes_failing", sdbus::Variant(smart.attributes_failing));
    if (smart.temperature_celsius > 0)
        health.emplace("temperature_celsius", sdbus::Variant(smart.temperature_celsius));
    for (const auto& [key, value] : smart_count_keys(smart.counts))
        health.emplace(key, sdbus::Variant(value));
    return health;
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
