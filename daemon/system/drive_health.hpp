// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The daemon's own reading of a disk's health, for the drives udisks 2.9
// keeps none for: an NVMe drive's SMART / Health log (nvme_health.hpp),
// or the ATA SMART of a SATA disk or SAT USB bridge that udisks made no
// Drive.Ata for (ata_smart.hpp). Blocking (it talks to the drive): run on
// a probe thread.

#include "device_facts.hpp"

#include <chrono>
#include <optional>
#include <string>

namespace diskbench::system {

enum class HealthReader { none, nvme, ata };

// Which reader suits disk `name` ("nvme0n1", "sda"): NVMe namespaces; SCSI
// disks the kernel's libata drives (vendor "ATA") or that udev's ata_id
// found to answer ATA commands (ID_ATA, for USB bridges: ata_id asked them
// first, so a bridge that does not speak SAT is never sent one). Cheap.
HealthReader health_reader(const std::string& name, dev_t disk);

// How often a drive is read again while someone looks: NVMe's log is a
// controller's memory; an ATA drive is asked as seldom as udisks asks.
std::chrono::seconds health_interval(HealthReader reader);

// Reads the health of the disk at `node`; nullopt when the drive did not
// answer, or is an ATA drive in standby (then the last reading stands).
std::optional<DeviceFacts::SmartHealth> read_drive_health(HealthReader reader, const std::string& node);

} // namespace diskbench::system
