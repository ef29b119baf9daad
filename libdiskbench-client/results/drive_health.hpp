// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/recent_results.hpp"
#include "types/daemon_types.hpp"
#include "types/result_types.hpp"

#include <cstdint>
#include <string>
#include <vector>

// A drive's SMART health next to its speed (Device.Health, API 0.9, from
// udisks' Drive.Ata), and whether it got worse: its bad sectors against
// those a kept result of the same drive recorded (Job.DeviceInfo
// "smart_bad_sectors"). The Info page says it; the app warns with it.
namespace diskbench::client {

struct HealthVerdict {
    bool known = false;   // the drive reports SMART health
    bool warn = false;    // failing, or more bad sectors than last time
    std::string summary;  // one line for the Info page, translated
    std::string warning;  // why to worry, translated; "" when not
};

// HEALTH: Device.Health; PREVIOUS: the device_info of the newest kept
// result of this drive that has SMART values ("smart_bad_sectors", or an
// NVMe drive's "nvme_media_errors"), or null. An NVMe drive (source
// "nvme", API 0.15) warns on a critical warning bit or media errors that
// grew.
HealthVerdict drive_health(const SavedValueMap& health, const SavedValueMap* previous, std::int64_t previous_at_us = 0);

// Device.Health's keys back from a result's device_info ("smart_" and
// "nvme_" + the key): the drive's health when that run started; empty when
// the result recorded none.
SavedValueMap health_at_start(const SavedValueMap& device_info);

// The verdict on DEVICE's Device.Health against the newest of RESULTS
// (newest first) of the same drive that recorded health values: what the
// app's Info page and `diskbenchctl info` say.
HealthVerdict device_health(const DeviceEntry& device, const std::vector<RecentResult>& results);

} // namespace diskbench::client
