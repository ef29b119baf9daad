// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "contract/job_states.hpp"
#include "contract/failure_messages.hpp"
#include "contract/messages.hpp"
#include "types/result_types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::client {

// What the client knows about one of the daemon's Device objects.
struct DeviceEntry {
    std::string path;
    std::string node, name, kind; // kind: "disk", "partition", "loop"
    std::string model, vendor, serial, wwn, revision, connection_bus;
    std::string by_id; // the /dev/disk/by-id name, "" when none (API 0.8)
    std::uint64_t size = 0;
    std::uint32_t logical_block_size = 0, physical_block_size = 0, max_sectors_kib = 0;
    bool rotational = false, removable = false, mounted = false, in_use = false;
    bool system_disk = false; // on a disk the running system is on: never written
    // Device.EraseConfirmation: what `confirm` must say to erase it (the
    // daemon's choice: the serial, or the node when there is none).
    std::string erase_confirmation;
    std::int32_t rotation_rate = -1;
    std::string scheduler, write_cache;
    // Device.Temperature (°C) and TemperatureSource ("" when it has no sensor).
    double temperature = 0;
    std::string temperature_source;
    // Device.Link ("PCIe 3.0 x4", "" unknown), LinkLimit (MB/s, 0 unknown)
    // and Stack (the layers down to the disk, top first); since API 0.4.
    std::string link;
    double link_limit_mb_s = 0;
    std::vector<std::string> stack;
    // Device.Health (API 0.9): "failing", "bad_sectors", "power_on_seconds",
    // "attributes_failing", "source"; empty when unknown.
    SavedValueMap health;
    std::string job; // running Job object or "/"
};

// A Job object: its properties plus every sample seen so far, per series.
struct JobEntry {
    std::string path;
    std::string kind, device, state, backend;
    // Why it failed: Job.ErrorName (the full D-Bus error name) and
    // Job.ErrorMessage; both "" unless the state is "failed".
    std::string error_name, error_message;
    // Job.Failure (daemon 0.16): error_message as data, which the clients
    // translate; nothing from older daemons and for words outside the catalogue.
    std::optional<contract::FailureReport> failure;
    std::string target; // Job.Target: the node, or the folder as the daemon sees it
    std::uint32_t owner = 0;
    double progress = 0;
    std::uint64_t sample_count = 0, started_at_us = 0, finished_at_us = 0;
    SavedValueMap parameters, device_info, summary;
    std::vector<SeriesDeclaration> series;
    std::vector<std::string> warnings, notes;
    // Job.WarningMessages / NoteMessages (daemon 0.5): the same, as catalogue
    // messages the app translates (text/message_text); empty from older daemons.
    std::vector<contract::Message> warning_messages, note_messages;
    std::vector<std::vector<SeriesPoint>> points; // by series index

    [[nodiscard]] bool running() const noexcept { return state == contract::job_states::running; }
    // Finished, failed or cancelled: no more samples will change its series.
    [[nodiscard]] bool ended() const noexcept { return contract::job_states::ended(state); }
    // A filesystem benchmark (its DeviceInfo has the filesystem's facts).
    [[nodiscard]] bool in_directory() const noexcept { return device_info.count("filesystem_type") > 0; }
    // The samples received so far, by index (Samples signals and
    // GetSamples pages): the job's points are complete when it reaches
    // sample_count. Not point_count(): a partial point (a surface scan's
    // bucket still being read, "mean.partial") is replaced by the next one
    // of its bucket, so a long scan has fewer points than samples.
    std::uint64_t samples_received = 0;
    [[nodiscard]] bool all_samples_here() const noexcept { return samples_received >= sample_count; }
    // The points kept, over every series.
    [[nodiscard]] std::uint64_t point_count() const noexcept
    {
        std::uint64_t count = 0;
        for (const auto& series_points : points)
            count += series_points.size();
        return count;
    }
};

// One parameter of a benchmark kind, from Manager.ListBenchmarks().
struct ParameterInfo {
    std::string key, type, description;
    SavedValue default_value;
    // From Manager.ListParameterChoices() (daemon 0.4): the values offered
    // in a drop-down; `exclusive` when no other value is accepted; unit
    // "bytes" for byte sizes. Empty: any value of the type.
    // (Defaults given, so the four-field initialisers of older code still compile warning-free.)
    std::vector<SavedValue> choices = {};
    bool exclusive = false;
    std::string unit = {};
    // From Manager.ListParameterRanges() (daemon 0.5), for "unsigned" and
    // "number": the inclusive range the daemon accepts; `ranged` false
    // when the daemon did not say (an older one).
    bool ranged = false;
    double minimum = 0, maximum = 0;
};

struct BenchmarkInfo {
    std::string kind;
    std::string target; // "device", "device-write" or "directory": how it is started
    std::string title, description;
    std::vector<ParameterInfo> parameters;
};

// A failed call, with the daemon's error name so the UI can tell a
// dismissed password prompt (quiet) from a real refusal.
struct CallError {
    CallError() = default;
    CallError(std::string error_name, std::string error_message,
              std::optional<contract::FailureReport> failure_data = std::nullopt)
        : name(std::move(error_name)), message(std::move(error_message)), failure(std::move(failure_data))
    {
    }

    std::string name, message;
    // The message as data (daemon 0.16: the a{sv} after it), which the
    // clients translate; nothing from older daemons and the bus's own errors.
    std::optional<contract::FailureReport> failure;
};

} // namespace diskbench::client
