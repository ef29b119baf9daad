// SPDX-License-Identifier: GPL-3.0-or-later
#include "ata_smart.hpp"

#include "../engine/base/unique_fd.hpp"

#include <fcntl.h>
#include <scsi/sg.h>
#include <sys/ioctl.h>

#include <array>
#include <vector>

namespace diskbench::system {

namespace {

constexpr std::size_t attribute_count = 30;
constexpr std::size_t attribute_size = 12;

// SAT ATA PASS-THROUGH(16), SAT-4 table 169.
constexpr std::uint8_t pass_through_16 = 0x85;
constexpr std::uint8_t protocol_non_data = 3;
constexpr std::uint8_t protocol_pio_in = 4;
constexpr std::uint8_t ck_cond = 0x20;
// T_DIR from the device, BYT_BLOK (count in blocks), T_LENGTH in COUNT.
constexpr std::uint8_t pio_in_transfer = 0x08 | 0x04 | 0x02;

constexpr std::uint8_t smart_command = 0xb0;
constexpr std::uint8_t smart_read_data = 0xd0;
constexpr std::uint8_t smart_read_thresholds = 0xd1;
constexpr std::uint8_t smart_return_status = 0xda;
constexpr std::uint8_t check_power_mode = 0xe5;

struct Command {
    std::uint8_t command = 0, features = 0, count = 0, lba_mid = 0, lba_high = 0;
};

struct Reply {
    bool ok = false;
    std::optional<AtaRegisters> registers;
};

Reply send(int fd, const Command& c, std::vector<std::uint8_t>* data, bool want_registers)
{
    std::array<std::uint8_t, 16> cdb {};
    cdb[0] = pass_through_16;
    cdb[1] = static_cast<std::uint8_t>((data ? protocol_pio_in : protocol_non_data) << 1);
    cdb[2] = static_cast<std::uint8_t>((data ? pio_in_transfer : 0) | (want_registers ? ck_cond : 0));
    cdb[4] = c.features;
    cdb[6] = c.count;
    cdb[10] = c.lba_mid;
    cdb[12] = c.lba_high;
    cdb[13] = 0xa0; // the device register's obsolete bits, as smartctl sends them
    cdb[14] = c.command;
    std::array<std::uint8_t, 32> sense {};
    sg_io_hdr_t io {};
    io.interface_id = 'S';
    io.cmdp = cdb.data();
    io.cmd_len = cdb.size();
    io.sbp = sense.data();
    io.mx_sb_len = sense.size();
    io.dxfer_direction = data ? SG_DXFER_FROM_DEV : SG_DXFER_NONE;
    if (data) {
        io.dxferp = data->data();
        io.dxfer_len = static_cast<unsigned>(data->size());
    }
    io.timeout = 10'000; // ms
    Reply reply;
    if (::ioctl(fd, SG_IO, &io) != 0)
        return reply;
    const auto registers = registers_from_sense(std::span(sense.data(), io.sb_len_wr));
    if (want_registers) {
        reply.registers = registers;
        reply.ok = registers.has_value() && !(registers->status & 0x01); // ERR
        return reply;
    }
    // Without CK_COND a good command has GOOD status and no sense; an
    // aborted one (the drive does not know it) has CHECK CONDITION.
    reply.ok = io.status == 0 && io.host_status == 0 && (io.driver_status & 0x0f) == 0;
    return reply;
}

std::int64_t raw48(std::span<const std::uint8_t> entry)
{
    std::int64_t value = 0;
    for (std::size_t i = 10; i >= 5; --i)
        value = (value << 8) | entry[i];
    return value;
}

} // namespace

AtaSmart parse_ata_smart(std::span<const std::uint8_t, ata_sector_size> data, std::span<const std::uint8_t> thresholds)
{
    AtaSmart smart;
    std::map<std::uint8_t, std::uint8_t> threshold_of;
    if (thresholds.size() >= ata_sector_size)
        for (std::size_t i = 0; i < attribute_count; ++i) {
            const auto entry = thresholds.subspan(2 + i * attribute_size, attribute_size);
            if (entry[0] != 0)
                threshold_of[entry[0]] = entry[1];
        }
    for (std::size_t i = 0; i < attribute_count; ++i) {
        const auto entry = std::span(data).subspan(2 + i * attribute_size, attribute_size);
        const std::uint8_t id = entry[0];
        if (id == 0)
            continue;
        smart.raw[id] = raw48(entry);
        const std::uint8_t value = entry[3];
        if (const auto t = threshold_of.find(id); t != threshold_of.end() && t->second != 0 && value <= t->second)
            ++smart.attributes_failing;
    }
    // 194 is the drive's temperature; 190 (airflow) is the one drives
    // without 194 report. Only the low byte is degrees: the others hold
    // minimum and maximum on many drives.
    for (const std::uint8_t id : { std::uint8_t { 194 }, std::uint8_t { 190 } })
        if (const auto found = smart.raw.find(id); found != smart.raw.end() && (found->second & 0xff) > 0) {
            smart.temperature_celsius = static_cast<double>(found->second & 0xff);
            break;
        }
    return smart;
}

std::optional<bool> return_status_failing(std::uint8_t lba_mid, std::uint8_t lba_high)
{
    if (lba_mid == 0x4f && lba_high == 0xc2)
        return false;
    if (lba_mid == 0xf4 && lba_high == 0x2c)
        return true;
    return std::nullopt;
}

std::optional<AtaRegisters> registers_from_sense(std::span<const std::uint8_t> sense)
{
    if (sense.size() < 8)
        return std::nullopt;
    const std::uint8_t format = sense[0] & 0x7f;
    if (format == 0x72 || format == 0x73) {
        const std::size_t end = std::min<std::size_t>(sense.size(), 8u + sense[7]);
        for (std::size_t at = 8; at + 2 <= end; at += 2u + sense[at + 1]) {
            if (sense[at] == 0x09 && sense[at + 1] >= 0x0c && at + 14 <= end) {
                const auto d = sense.subspan(at, 14);
                return AtaRegisters { d[5], d[9], d[11], d[13] };
            }
        }
        return std::nullopt;
    }
    // SAT-4 fixed format, only as the answer of a pass-through (sense key
    // NO SENSE or RECOVERED ERROR, ASC/ASCQ 00h/1Dh "ATA pass-through
    // information available"): a SCSI disk's ILLEGAL REQUEST has the same
    // layout and other meanings in those bytes. INFORMATION = error,
    // status, device, count; COMMAND-SPECIFIC INFORMATION = flags, lba low,
    // mid, high.
    if ((format == 0x70 || format == 0x71) && sense.size() >= 14 && (sense[2] & 0x0f) <= 0x01 && sense[12] == 0x00
        && sense[13] == 0x1d)
        return AtaRegisters { sense[6], sense[10], sense[11], sense[4] };
    return std::nullopt;
}

AtaReadResult read_ata_smart(const std::string& node, AtaSmart& smart)
{
    const engine::UniqueFd fd(::open(node.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fd.valid())
        return AtaReadResult::not_ata;
    const Reply power = send(fd.get(), { check_power_mode }, nullptr, true);
    if (!power.ok)
        return AtaReadResult::not_ata;
    if (power.registers->count == 0x00) // standby
        return AtaReadResult::standby;
    std::vector<std::uint8_t> data(ata_sector_size);
    if (!send(fd.get(), { smart_command, smart_read_data, 1, 0x4f, 0xc2 }, &data, false).ok)
        return AtaReadResult::not_ata;
    std::vector<std::uint8_t> thresholds(ata_sector_size);
    if (!send(fd.get(), { smart_command, smart_read_thresholds, 1, 0x4f, 0xc2 }, &thresholds, false).ok)
        thresholds.clear(); // obsolete in ACS-2: many drives still answer it
    smart = parse_ata_smart(std::span<const std::uint8_t, ata_sector_size>(data.data(), data.size()), thresholds);
    const Reply status = send(fd.get(), { smart_command, smart_return_status, 0, 0x4f, 0xc2 }, nullptr, true);
    if (status.registers)
        smart.failing = return_status_failing(status.registers->lba_mid, status.registers->lba_high).value_or(false);
    return AtaReadResult::read;
}

} // namespace diskbench::system
