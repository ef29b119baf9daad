// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/job_result.hpp"

#include "text/value_format.hpp"
#include "contract/error_names.hpp"
#include "text/failure_text.hpp"
#include "text/printf_text.hpp"
#include "contract/job_states.hpp"

#include <glib/gi18n-lib.h>

#include <memory>

namespace diskbench::client {

SavedResult saved_result_from_job(const JobEntry& job)
{
    SavedResult result;
    result.kind = job.kind;
    result.state = job.state;
    result.backend = job.backend;
    if (job.in_directory()) {
        result.target_kind = "directory";
        result.target = job.target;
    }
    result.started_at_us = static_cast<std::int64_t>(job.started_at_us);
    result.finished_at_us = static_cast<std::int64_t>(job.finished_at_us);
    result.parameters = job.parameters;
    result.summary = job.summary;
    result.device_info = job.device_info;
    result.warnings = job.warnings;
    result.notes = job.notes;
    result.warning_messages = job.warning_messages;
    result.note_messages = job.note_messages;
    for (std::size_t i = 0; i < job.series.size(); ++i) {
        const SeriesDeclaration& declared = job.series[i];
        // Their latest point is in the final series' place already (SampleStream).
        if (contract::is_partial_series(declared.name))
            continue;
        SavedSeries series { declared.name, declared.x_unit, declared.y_unit, declared.style, {} };
        if (i < job.points.size())
            series.points = job.points[i];
        result.series.push_back(std::move(series));
    }
    return result;
}

ErrorText error_text(const CallError& error, const std::string& folder)
{
    using contract::ErrorCode;
    if (const std::optional<ErrorCode> code = contract::error_code_from_name(error.name)) {
        switch (*code) {
        case ErrorCode::PermissionDenied:
            return { folder.empty() ? std::string(_("You cannot write in this folder."))
                                    /* TRANSLATORS: %s is a folder's name */
                                    : printf_text(_("You cannot write in “%s”."), folder.c_str()) };
        case ErrorCode::NoSpace:
            return { folder.empty() ? std::string(_("The folder’s filesystem is full."))
                                    /* TRANSLATORS: %s is a folder's name */
                                    : printf_text(_("“%s” is full."), folder.c_str()) };
        case ErrorCode::NotAuthorizedDismissed:
            return { _("Not started: the password dialog was dismissed."), true };
        case ErrorCode::NotAuthorized:
            return { _("You are not allowed to benchmark this device. An administrator can allow it with a polkit rule.") };
        case ErrorCode::NotAuthorizedCanObtain:
            return { _("Benchmarking this device needs an administrator password.") };
        case ErrorCode::DeviceBusy:
            return { _("The device is busy: another benchmark is running on it or on one of its partitions.") };
        case ErrorCode::NotFound:
            return { _("The device is gone.") };
        case ErrorCode::LimitsExceeded:
            return { _("Too many benchmarks are waiting for authorization. Answer the open password dialogs first.") };
        case ErrorCode::InvalidArgument:
            return { std::string(_("The settings do not fit this device:")) + " " + localized_failure_text(error.message, error.failure) };
        case ErrorCode::Cancelled:
        case ErrorCode::Failed:
            break;
        }
    }
    const std::string& name = error.name;
    if (name == "org.freedesktop.DBus.Error.ServiceUnknown" || name == "org.freedesktop.DBus.Error.NoReply"
        || name == "org.freedesktop.DBus.Error.Spawn.ChildExited" || name == "org.freedesktop.DBus.Error.NameHasNoOwner")
        return { _("The benchmark service (diskbenchd) is not available. Is diskbench installed correctly?") };
    if (name == "org.freedesktop.DBus.Error.Timeout" || name == "org.freedesktop.DBus.Error.TimedOut")
        return { _("The benchmark service did not answer in time.") };
    return { std::string(_("The benchmark failed:")) + " " + localized_failure_text(error.message, error.failure) };
}

std::optional<ErrorText> job_error_text(const JobEntry& job, const std::string& folder)
{
    if (job.state != contract::job_states::failed || (job.error_name.empty() && job.error_message.empty()))
        return std::nullopt;
    const std::string name = job.error_name.empty() ? std::string(contract::error_name(contract::ErrorCode::Failed))
                                                    : job.error_name;
    return error_text(CallError { name, job.error_message, job.failure }, folder);
}

std::string device_title(const DeviceEntry& device)
{
    std::string model = device.vendor.empty() ? device.model : device.vendor + " " + device.model;
    while (!model.empty() && model.back() == ' ')
        model.pop_back();
    if (model.empty())
        return device.name.empty() ? device.node : device.name;
    return model + " (" + device.name + ")";
}

std::string device_subtitle(const DeviceEntry& device)
{
    std::string text = format_value(static_cast<double>(device.size), Unit::Bytes);
    if (device.kind == "loop")
        text += std::string(" · ") + _("loop device");
    else if (device.kind == "partition")
        text += std::string(" · ") + _("partition");
    text += std::string(" · ") + (device.rotational ? _("rotational") : _("SSD"));
    if (device.system_disk)
        /* TRANSLATORS: in a device's subtitle: the running system is on this disk */
        text += std::string(" · ") + _("system disk");
    if (device.mounted)
        text += std::string(" · ") + _("mounted");
    else if (device.in_use)
        text += std::string(" · ") + _("in use");
    return text;
}

} // namespace diskbench::client

namespace diskbench::client {
SavedValueMap device_info_of(const DeviceEntry& device)
{
    return {
        { "node", device.node },
        { "model", device.model },
        { "vendor", device.vendor },
        { "serial", device.serial },
        { "wwn", device.wwn },
        { "size", static_cast<std::int64_t>(device.size) },
    };
}
} // namespace diskbench::client

namespace diskbench::client {
std::string result_date_text(std::int64_t unix_us)
{
    GDateTime* time = g_date_time_new_from_unix_local(unix_us / 1000000);
    if (!time)
        return {};
    // TRANSLATORS: date and time of a result, strftime format
    gchar* text = g_date_time_format(time, _("%e %b %Y %H:%M"));
    std::string result = text ? text : "";
    g_free(text);
    g_date_time_unref(time);
    result.erase(0, result.find_first_not_of(' '));
    return result;
}
} // namespace diskbench::client
