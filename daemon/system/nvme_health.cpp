// SPDX-License-Identifier: GPL-3.0-or-later
#include "nvme_health.hpp"

#include "../engine/base/unique_fd.hpp"

#include <fcntl.h>
#include <linux/nvme_ioctl.h>
#include <sys/ioctl.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace diskbench::system {

namespace {

std::uint64_t little_endian(std::span<const std::uint8_t> bytes)
{
    std::uint64_t value = 0;
    for (std::size_t i = bytes.size(); i-- > 0;)
        value = (value << 8) | bytes[i];
    return value;
}

// The log's 128-bit counters: a drive will not count past 2^64 in its
// life, but one that says so is saturated rather than wrapped.
std::uint64_t counter128(std::span<const std::uint8_t> page, std::size_t offset)
{
    const std::uint64_t high = little_endian(page.subspan(offset + 8, 8));
    return high ? std::numeric_limits<std::uint64_t>::max() : little_endian(page.subspan(offset, 8));
}

// Whole Kelvin in, hundredths of a degree out (323 K is 49.85 °C, not
// 49.850000000000023).
double kelvin_to_celsius(std::uint64_t kelvin)
{
    return kelvin ? std::round((static_cast<double>(kelvin) - 273.15) * 100) / 100 : 0;
}

constexpr std::uint8_t get_log_page = 0x02;
constexpr std::uint8_t identify = 0x06;
constexpr std::uint32_t smart_log_id = 0x02;
constexpr std::uint32_t all_namespaces = 0xffffffff;
constexpr std::uint32_t identify_controller = 0x01;

bool admin(int fd, std::uint8_t opcode, std::uint32_t nsid, std::uint32_t cdw10, std::vector<std::uint8_t>& data)
{
    nvme_admin_cmd command {};
    command.opcode = opcode;
    command.nsid = nsid;
    command.addr = reinterpret_cast<std::uintptr_t>(data.data());
    command.data_len = static_cast<std::uint32_t>(data.size());
    command.cdw10 = cdw10;
    command.timeout_ms = 5000;
    return ::ioctl(fd, NVME_IOCTL_ADMIN_CMD, &command) == 0;
}

} // namespace

NvmeHealth parse_nvme_smart_log(std::span<const std::uint8_t, nvme_smart_log_size> page)
{
    NvmeHealth health;
    health.critical_warning = page[0];
    health.temperature_celsius = kelvin_to_celsius(little_endian(std::span(page).subspan(1, 2)));
    health.available_spare = page[3];
    health.available_spare_threshold = page[4];
    health.percentage_used = page[5];
    health.data_units_read = counter128(page, 32);
    health.data_units_written = counter128(page, 48);
    health.power_cycles = counter128(page, 112);
    health.power_on_hours = counter128(page, 128);
    health.unsafe_shutdowns = counter128(page, 144);
    health.media_errors = counter128(page, 160);
    health.error_log_entries = counter128(page, 176);
    return health;
}

void add_nvme_thresholds(std::span<const std::uint8_t, nvme_identify_size> page, NvmeHealth& health)
{
    health.warning_temperature_celsius = kelvin_to_celsius(little_endian(std::span(page).subspan(266, 2)));
    health.critical_temperature_celsius = kelvin_to_celsius(little_endian(std::span(page).subspan(268, 2)));
}

std::string nvme_warning_names(std::uint8_t bits)
{
    static constexpr const char* names[] = {
        "spare below threshold",          "temperature beyond a threshold", "reliability degraded",
        "read-only",                      "volatile memory backup failed",  "persistent memory read-only",
    };
    std::string text;
    for (unsigned bit = 0; bit < 8; ++bit)
        if (bits & (1u << bit))
            text += (text.empty() ? "" : ", ") + std::string(bit < 6 ? names[bit] : "reserved bit");
    return text;
}

std::optional<NvmeHealth> read_nvme_health(const std::string& node)
{
    // O_NONBLOCK: no wait for a medium; nothing is read from the namespace.
    const engine::UniqueFd fd(::open(node.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid())
        return std::nullopt;
    std::vector<std::uint8_t> log(nvme_smart_log_size);
    // NUMDL: dwords - 1; RAE (bit 15): leave a pending health event to the
    // kernel, which may be waiting for it.
    const std::uint32_t log_cdw10 = smart_log_id | (1u << 15) | ((nvme_smart_log_size / 4 - 1) << 16);
    if (!admin(fd.get(), get_log_page, all_namespaces, log_cdw10, log))
        return std::nullopt;
    NvmeHealth health = parse_nvme_smart_log(std::span<const std::uint8_t, nvme_smart_log_size>(log.data(), log.size()));
    std::vector<std::uint8_t> controller(nvme_identify_size);
    if (admin(fd.get(), identify, 0, identify_controller, controller))
        add_nvme_thresholds(std::span<const std::uint8_t, nvme_identify_size>(controller.data(), controller.size()),
                            health);
    return health;
}

} // namespace diskbench::system
