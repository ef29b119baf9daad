// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An NVMe drive's SMART / Health Information log (log page 02h) and its
// composite temperature thresholds (Identify Controller WCTEMP/CCTEMP),
// read with the kernel's NVMe admin pass-through (NVME_IOCTL_ADMIN_CMD).
// Debian 12's udisks 2.9 has no NVMe health (Drive.NVMe came in 2.10), and
// two admin commands are less than what libnvme would bring: its 1.3 API
// wraps the same ioctl, and the daemon needs nothing else of it.
// Layouts: NVM Express Base Specification 2.0, figures 207 (SMART / Health
// log) and 275 (Identify Controller).

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace diskbench::system {

struct NvmeHealth {
    std::uint8_t critical_warning = 0;   // bit 0 spare, 1 temperature, 2 reliability, 3 read-only, 4 backup, 5 PMR
    double temperature_celsius = 0;      // composite temperature; 0 when the drive reports none
    double warning_temperature_celsius = 0;  // WCTEMP, 0 when not reported
    double critical_temperature_celsius = 0; // CCTEMP, 0 when not reported
    std::uint8_t available_spare = 0;        // percent
    std::uint8_t available_spare_threshold = 0;
    std::uint8_t percentage_used = 0;        // may exceed 100
    std::uint64_t data_units_read = 0;       // thousands of 512-byte units (saturated at 2^64-1)
    std::uint64_t data_units_written = 0;
    std::uint64_t power_on_hours = 0;
    std::uint64_t power_cycles = 0;
    std::uint64_t unsafe_shutdowns = 0;
    std::uint64_t media_errors = 0;          // media and data integrity errors
    std::uint64_t error_log_entries = 0;
    bool operator==(const NvmeHealth&) const = default;
};

inline constexpr std::size_t nvme_smart_log_size = 512;
inline constexpr std::size_t nvme_identify_size = 4096;

// Pure: the fields of a SMART / Health log page as the drive sent it.
NvmeHealth parse_nvme_smart_log(std::span<const std::uint8_t, nvme_smart_log_size> page);
// Pure: WCTEMP and CCTEMP of an Identify Controller page into `health`.
void add_nvme_thresholds(std::span<const std::uint8_t, nvme_identify_size> identify, NvmeHealth& health);

// The names of the critical warning bits that are set ("spare below
// threshold", ...), for logs and tests; "" when none.
std::string nvme_warning_names(std::uint8_t critical_warning);

// Reads both pages from the NVMe block device or controller at `node`
// (root only: the admin pass-through needs CAP_SYS_ADMIN). nullopt when it
// is not an NVMe device or the drive refused.
std::optional<NvmeHealth> read_nvme_health(const std::string& node);

} // namespace diskbench::system
