// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"
#include "types/result_types.hpp"

#include <optional>
#include <string>

namespace diskbench::client {

// A job as a result file keeps it (series with their points, facts, figures).
SavedResult saved_result_from_job(const JobEntry& job);

// What a user reads when a call to the daemon failed. `quiet` marks a
// choice the user made (dismissing the password dialog): a short toast,
// not an error.
struct ErrorText {
    std::string message;
    bool quiet = false;
};
// `folder`: the display name of the folder of a filesystem benchmark, for
// PermissionDenied and NoSpace.
ErrorText error_text(const CallError& error, const std::string& folder = {});
// Why a failed job failed, from its ErrorName and ErrorMessage; nothing
// when it did not fail (or the daemon has not said why yet).
std::optional<ErrorText> job_error_text(const JobEntry& job, const std::string& folder = {});

// "Disk Benchmark" facts of a device for the Info page and titles:
// "Samsung SSD 860 (sda)" or "loop0" when there is no model.
std::string device_title(const DeviceEntry& device);
// "500 GB · SSD · in use"
std::string device_subtitle(const DeviceEntry& device);

} // namespace diskbench::client

namespace diskbench::client {
// The identity facts of a live device, in Job.DeviceInfo's keys, to find
// earlier results of the same disk.
SavedValueMap device_info_of(const DeviceEntry& device);
// When a result was taken, for labels: "22 Nov 2026 14:03" (translated format).
std::string result_date_text(std::int64_t unix_us);
} // namespace diskbench::client
