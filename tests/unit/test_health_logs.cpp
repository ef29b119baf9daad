// SPDX-License-Identifier: GPL-3.0-or-later
// The daemon's own health readers' parsers, on pages built byte by byte
// from the specifications' layouts: the NVMe SMART / Health Information
// log (NVM Express Base Specification 2.0, figure 207) and Identify
// Controller's WCTEMP/CCTEMP (figure 275); ATA SMART READ DATA and READ
// THRESHOLDS (ATA/ATAPI-8 ACS, the attribute table of 30 12-byte
// entries), SMART RETURN STATUS's registers and SAT-4's sense formats.
#include "system/ata_smart.hpp"
#include "system/nvme_health.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

using namespace diskbench::system;

namespace {

// Little-endian `bytes`-wide field at `offset`.
template <std::size_t N>
void put(std::array<std::uint8_t, N>& page, std::size_t offset, std::uint64_t value, std::size_t bytes)
{
    for (std::size_t i = 0; i < bytes; ++i)
        page[offset + i] = static_cast<std::uint8_t>(value >> (8 * i));
}

std::array<std::uint8_t, nvme_smart_log_size> smart_log()
{
    std::array<std::uint8_t, nvme_smart_log_size> page {};
    page[0] = 0x05;                 // critical warning: spare + reliability
    put(page, 1, 318, 2);           // composite temperature, Kelvin (44.85 °C)
    page[3] = 87;                   // available spare %
    page[4] = 10;                   // its threshold
    page[5] = 104;                  // percentage used (may pass 100)
    put(page, 32, 123456789, 8);    // data units read
    put(page, 48, 98765432, 8);     // data units written
    put(page, 64, 555, 8);          // host read commands (not read)
    put(page, 112, 42, 8);          // power cycles
    put(page, 128, 17520, 8);       // power-on hours
    put(page, 144, 7, 8);           // unsafe shutdowns
    put(page, 160, 3, 8);           // media and data integrity errors
    put(page, 176, 12, 8);          // error information log entries
    return page;
}

} // namespace

TEST_CASE("NVMe SMART / Health log fields at their offsets", "[health-logs]")
{
    const auto page = smart_log();
    const NvmeHealth health = parse_nvme_smart_log(page);
    CHECK(health.critical_warning == 0x05);
    CHECK(health.temperature_celsius == Approx(44.85));
    CHECK(health.available_spare == 87);
    CHECK(health.available_spare_threshold == 10);
    CHECK(health.percentage_used == 104);
    CHECK(health.data_units_read == 123456789);
    CHECK(health.data_units_written == 98765432);
    CHECK(health.power_cycles == 42);
    CHECK(health.power_on_hours == 17520);
    CHECK(health.unsafe_shutdowns == 7);
    CHECK(health.media_errors == 3);
    CHECK(health.error_log_entries == 12);
    CHECK(nvme_warning_names(health.critical_warning) == "spare below threshold, reliability degraded");
    CHECK(nvme_warning_names(0).empty());
    CHECK(nvme_warning_names(0x88) == "read-only, reserved bit");
}

TEST_CASE("NVMe 128-bit counters saturate rather than wrap; no temperature is 0", "[health-logs]")
{
    auto page = smart_log();
    put(page, 1, 0, 2);
    put(page, 160, 1, 8);
    put(page, 168, 1, 8); // the high 64 bits of media errors
    const NvmeHealth health = parse_nvme_smart_log(page);
    CHECK(health.temperature_celsius == 0);
    CHECK(health.media_errors == UINT64_MAX);
    CHECK(health.error_log_entries == 12);
}

TEST_CASE("Identify Controller's composite temperature thresholds", "[health-logs]")
{
    std::array<std::uint8_t, nvme_identify_size> identify {};
    put(identify, 266, 343, 2); // WCTEMP 69.85 °C
    put(identify, 268, 358, 2); // CCTEMP 84.85 °C
    NvmeHealth health;
    add_nvme_thresholds(identify, health);
    CHECK(health.warning_temperature_celsius == Approx(69.85));
    CHECK(health.critical_temperature_celsius == Approx(84.85));
    std::array<std::uint8_t, nvme_identify_size> none {};
    NvmeHealth unreported;
    add_nvme_thresholds(none, unreported);
    CHECK(unreported.warning_temperature_celsius == 0);
}

namespace {

struct Attribute {
    std::uint8_t id, value, threshold;
    std::uint64_t raw;
};

void put_attributes(std::array<std::uint8_t, ata_sector_size>& data, std::array<std::uint8_t, ata_sector_size>& thresholds,
                    const std::vector<Attribute>& attributes)
{
    put(data, 0, 0x0010, 2); // revision
    for (std::size_t i = 0; i < attributes.size(); ++i) {
        const std::size_t at = 2 + i * 12;
        data[at] = attributes[i].id;
        put(data, at + 1, 0x0003, 2); // flags
        data[at + 3] = attributes[i].value;
        data[at + 4] = attributes[i].value; // worst
        put(data, at + 5, attributes[i].raw, 6);
        thresholds[at] = attributes[i].id;
        thresholds[at + 1] = attributes[i].threshold;
    }
}

} // namespace

TEST_CASE("ATA SMART attribute table: raw counts, temperature, failing attributes", "[health-logs]")
{
    std::array<std::uint8_t, ata_sector_size> data {}, thresholds {};
    put_attributes(data, thresholds,
                   {
                       { 1, 100, 6, 0 },
                       { 5, 30, 36, 24 },                  // reallocated: value below its threshold
                       { 9, 99, 0, 0x0000'0100'0000'2a30 }, // power-on hours: the low 32 bits are hours
                       { 190, 69, 50, 0x2b00'1f00'1f },    // airflow: 31 °C with min/max in the high bytes
                       { 194, 36, 0, 0x0014'0000'0024 },   // temperature 36 °C
                       { 197, 100, 0, 2 },
                       { 199, 200, 0, 0xffff'ffff'ffff },  // all 48 bits
                   });
    const AtaSmart smart = parse_ata_smart(data, thresholds);
    CHECK(smart.raw.at(5) == 24);
    CHECK((smart.raw.at(9) & 0xffffffff) == 0x2a30);
    CHECK(smart.raw.at(197) == 2);
    CHECK(smart.raw.at(199) == 0xffff'ffff'ffffLL);
    CHECK(smart.raw.count(187) == 0);
    CHECK(smart.temperature_celsius == 36); // 194 before 190
    CHECK(smart.attributes_failing == 1);   // 5 at 30 <= 36; a 0 threshold never fails

    std::array<std::uint8_t, ata_sector_size> only_airflow {}, its_thresholds {};
    put_attributes(only_airflow, its_thresholds, { { 190, 69, 50, 0x2b00'1f00'1f } });
    CHECK(parse_ata_smart(only_airflow, its_thresholds).temperature_celsius == 31);
    // Without READ THRESHOLDS (obsolete in ACS-2) nothing counts as failing.
    CHECK(parse_ata_smart(data, {}).attributes_failing == 0);
}

TEST_CASE("SMART RETURN STATUS: the LBA mid/high signatures", "[health-logs]")
{
    CHECK(return_status_failing(0x4f, 0xc2) == false);
    CHECK(return_status_failing(0xf4, 0x2c) == true);
    CHECK_FALSE(return_status_failing(0x00, 0x00).has_value());
}

TEST_CASE("ATA registers from descriptor and fixed sense data", "[health-logs]")
{
    // Descriptor format, ATA Status Return descriptor (SAT-4 12.2.2.6).
    std::vector<std::uint8_t> descriptor(8 + 14, 0);
    descriptor[0] = 0x72;
    descriptor[1] = 0x01; // recovered error
    descriptor[2] = 0x00;
    descriptor[3] = 0x1d; // ATA pass-through information available
    descriptor[7] = 14;
    descriptor[8] = 0x09;
    descriptor[9] = 0x0c;
    descriptor[8 + 5] = 0xff;  // count: active or idle
    descriptor[8 + 9] = 0xf4;  // lba mid
    descriptor[8 + 11] = 0x2c; // lba high
    descriptor[8 + 13] = 0x50; // status: DRDY, DSC
    const auto from_descriptor = registers_from_sense(descriptor);
    REQUIRE(from_descriptor);
    CHECK(from_descriptor->count == 0xff);
    CHECK(from_descriptor->lba_mid == 0xf4);
    CHECK(from_descriptor->lba_high == 0x2c);
    CHECK(from_descriptor->status == 0x50);

    // Fixed format as libata writes it: INFORMATION = error, status,
    // device, count; COMMAND-SPECIFIC INFORMATION = flags, lba low/mid/high.
    std::vector<std::uint8_t> fixed(18, 0);
    fixed[0] = 0x70;
    fixed[2] = 0x01; // recovered error
    fixed[4] = 0x50;
    fixed[6] = 0x00; // count: standby
    fixed[7] = 10;
    fixed[10] = 0x4f;
    fixed[11] = 0xc2;
    fixed[13] = 0x1d; // ATA pass-through information available
    const auto from_fixed = registers_from_sense(fixed);
    REQUIRE(from_fixed);
    CHECK(from_fixed->count == 0x00);
    CHECK(from_fixed->lba_mid == 0x4f);
    CHECK(from_fixed->lba_high == 0xc2);
    CHECK(from_fixed->status == 0x50);

    // A SCSI disk that knows no ATA pass-through: ILLEGAL REQUEST, invalid
    // command operation code (20h/00h), in the same layout.
    std::vector<std::uint8_t> refused = fixed;
    refused[2] = 0x05;
    refused[12] = 0x20;
    refused[13] = 0x00;
    CHECK_FALSE(registers_from_sense(refused).has_value());
    CHECK_FALSE(registers_from_sense(std::vector<std::uint8_t>(4, 0)).has_value());
    std::vector<std::uint8_t> other_descriptor = descriptor;
    other_descriptor[8] = 0x00; // not the ATA descriptor
    CHECK_FALSE(registers_from_sense(other_descriptor).has_value());
}
