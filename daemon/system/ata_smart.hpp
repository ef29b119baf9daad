// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An ATA drive's SMART data read by the daemon itself, with SCSI/ATA
// Translation (SAT) ATA PASS-THROUGH(16) over SG_IO, as smartctl does: for
// the drives udisks 2.9 offers no Drive.Ata for (its own IDENTIFY probe
// fails on some controllers, QEMU's AHCI among them) and for USB-SATA
// bridges that speak SAT. Layouts: ATA/ATAPI-8 ACS (SMART READ DATA,
// RETURN STATUS), SAT-4 (the pass-through CDB and its sense data).

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>

namespace diskbench::system {

struct AtaSmart {
    bool failing = false;            // SMART RETURN STATUS: threshold exceeded
    std::int32_t attributes_failing = 0; // normalized value at or below a non-zero threshold
    std::map<std::uint8_t, std::int64_t> raw; // attribute id -> raw value (48 bits)
    double temperature_celsius = 0;  // attribute 194, else 190; 0 when neither
    [[nodiscard]] std::int64_t raw_or(std::uint8_t id, std::int64_t fallback) const
    {
        const auto found = raw.find(id);
        return found == raw.end() ? fallback : found->second;
    }
    bool operator==(const AtaSmart&) const = default;
};

inline constexpr std::size_t ata_sector_size = 512;

// Pure: the attribute table of SMART READ DATA and its thresholds (SMART
// READ THRESHOLDS; an empty span when the drive gave none).
AtaSmart parse_ata_smart(std::span<const std::uint8_t, ata_sector_size> data,
                         std::span<const std::uint8_t> thresholds);

// Pure: whether the LBA mid/high registers SMART RETURN STATUS left say
// the drive predicts its failure (2Ch/F4h) rather than not (4Fh/C2h);
// nullopt when they say neither.
std::optional<bool> return_status_failing(std::uint8_t lba_mid, std::uint8_t lba_high);

// Pure: the ATA registers of a pass-through's sense data (descriptor
// format 72h with the ATA Status Return descriptor, or fixed format 70h
// as Linux's libata writes it): lba mid, lba high, count.
struct AtaRegisters {
    std::uint8_t count = 0, lba_mid = 0, lba_high = 0, status = 0;
};
std::optional<AtaRegisters> registers_from_sense(std::span<const std::uint8_t> sense);

enum class AtaReadResult { read, standby, not_ata };

// Reads SMART from the SCSI disk at `node` (root only): nothing when the
// drive is in standby (reading would spin it up, which udisks avoids too),
// or does not take ATA pass-through.
AtaReadResult read_ata_smart(const std::string& node, AtaSmart& smart);

} // namespace diskbench::system
