// SPDX-License-Identifier: GPL-3.0-or-later
#include "bus/object_properties.hpp"

#include "bus/variant_values.hpp"
#include "sdbus_types/failure_data.hpp"

namespace diskbench::client {

namespace {

template <typename T> void read(const PropertyMap& properties, const char* key, T& out)
{
    const auto found = properties.find(key);
    if (found != properties.end() && found->second.containsValueOfType<T>())
        out = found->second.get<T>();
}

void read_path(const PropertyMap& properties, const char* key, std::string& out)
{
    const auto found = properties.find(key);
    if (found != properties.end() && found->second.containsValueOfType<sdbus::ObjectPath>())
        out = found->second.get<sdbus::ObjectPath>();
}

// Job.WarningMessages / NoteMessages: a(ssa{sv}), arguments s, x or d.
void read_messages(const PropertyMap& properties, const char* key, std::vector<contract::Message>& out)
{
    using Entries = std::vector<sdbus::Struct<std::string, std::string, PropertyMap>>;
    const auto found = properties.find(key);
    if (found == properties.end() || !found->second.containsValueOfType<Entries>())
        return;
    out.clear();
    for (const auto& entry : found->second.get<Entries>()) {
        contract::Message message { entry.get<0>(), {} };
        for (const auto& [name, value] : entry.get<2>()) {
            if (value.containsValueOfType<std::string>())
                message.args.emplace_back(name, value.get<std::string>());
            else if (value.containsValueOfType<std::int64_t>())
                message.args.emplace_back(name, value.get<std::int64_t>());
            else if (value.containsValueOfType<double>())
                message.args.emplace_back(name, value.get<double>());
        }
        out.push_back(std::move(message));
    }
}

void read_map(const PropertyMap& properties, const char* key, SavedValueMap& out)
{
    const auto found = properties.find(key);
    if (found != properties.end() && found->second.containsValueOfType<PropertyMap>())
        out = saved_map_from_variants(found->second.get<PropertyMap>());
}

} // namespace

void apply_device_properties(DeviceEntry& device, const PropertyMap& p)
{
    read(p, "Node", device.node);
    read(p, "Name", device.name);
    read(p, "DeviceKind", device.kind);
    read(p, "Model", device.model);
    read(p, "Vendor", device.vendor);
    read(p, "Serial", device.serial);
    read(p, "ById", device.by_id);
    read(p, "WWN", device.wwn);
    read(p, "Revision", device.revision);
    read(p, "Size", device.size);
    read(p, "LogicalBlockSize", device.logical_block_size);
    read(p, "PhysicalBlockSize", device.physical_block_size);
    read(p, "Rotational", device.rotational);
    read(p, "RotationRate", device.rotation_rate);
    read(p, "Removable", device.removable);
    read(p, "ConnectionBus", device.connection_bus);
    read(p, "Mounted", device.mounted);
    read(p, "InUse", device.in_use);
    read(p, "SystemDisk", device.system_disk);
    read(p, "EraseConfirmation", device.erase_confirmation);
    read(p, "Scheduler", device.scheduler);
    read(p, "MaxSectorsKiB", device.max_sectors_kib);
    read(p, "WriteCache", device.write_cache);
    read(p, "Temperature", device.temperature); // a 0.2 daemon has neither: stays 0, ""
    read(p, "TemperatureSource", device.temperature_source);
    read(p, "Link", device.link); // a 0.3 daemon has none: stays "", 0, {}
    read(p, "LinkLimit", device.link_limit_mb_s);
    read(p, "Stack", device.stack);
    read_map(p, "Health", device.health);
    read_path(p, "Job", device.job);
}

void apply_job_properties(JobEntry& job, const PropertyMap& p)
{
    read(p, "Kind", job.kind);
    read(p, "Target", job.target);
    read_path(p, "Device", job.device);
    read(p, "Owner", job.owner);
    read_map(p, "Parameters", job.parameters);
    read_map(p, "DeviceInfo", job.device_info);
    read(p, "State", job.state);
    read(p, "Progress", job.progress);
    read(p, "Backend", job.backend);
    read(p, "SampleCount", job.sample_count);
    read_map(p, "Summary", job.summary);
    read(p, "Warnings", job.warnings);
    read(p, "Notes", job.notes);
    read_messages(p, "WarningMessages", job.warning_messages);
    read_messages(p, "NoteMessages", job.note_messages);
    // Not "Error": that is "NAME: message" for 0.1 clients; the two
    // properties say the same without anything to parse.
    read(p, "ErrorName", job.error_name);
    read(p, "ErrorMessage", job.error_message);
    // Failure (0.16) changes with ErrorMessage; an empty map is "no failure as data".
    if (const auto failure = p.find("Failure"); failure != p.end() && failure->second.containsValueOfType<PropertyMap>())
        job.failure = sdbus_types::failure_report(failure->second.get<PropertyMap>());
    read(p, "StartedAt", job.started_at_us);
    read(p, "FinishedAt", job.finished_at_us);
    const auto series = p.find("Series");
    using SeriesList = std::vector<sdbus::Struct<std::string, std::string, std::string, std::string>>;
    if (series != p.end() && series->second.containsValueOfType<SeriesList>()) {
        job.series.clear();
        for (const auto& declared : series->second.get<SeriesList>())
            job.series.push_back({ declared.get<0>(), declared.get<1>(), declared.get<2>(), declared.get<3>() });
        if (job.points.size() < job.series.size())
            job.points.resize(job.series.size());
    }
}

} // namespace diskbench::client
