// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_consent.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/confirmation.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

bool erases_only(const BenchmarkInfo& info)
{
    if (contract::kinds::erases_only(info.kind))
        return true;
    for (const ParameterInfo& p : info.parameters)
        if (p.key == "mode")
            if (const auto* mode = std::get_if<std::string>(&p.default_value))
                return *mode == "destroy";
    return false;
}

std::string write_confirmation(const DeviceEntry& device)
{
    return std::string(contract::without_blanks_around(device.erase_confirmation));
}

bool write_confirmed(const DeviceEntry& device, std::string_view typed)
{
    return contract::confirmation_matches(typed, device.erase_confirmation);
}

std::string write_blocker(const DeviceEntry& device)
{
    // First: "unmount it" would be the wrong advice for the system's disk.
    if (device.system_disk)
        return _("It is on the disk your system runs from. Write tests never run there.");
    if (device.mounted)
        return _("It is mounted. Unmount its filesystems (for example in Disks) to write to it.");
    if (device.in_use)
        return _("It is in use (part of a RAID, LVM or encrypted volume, or swap). Stop using it to write to it.");
    return {};
}

SavedValueMap write_options(const SavedValueMap& settings, WriteMode mode, std::string_view typed)
{
    SavedValueMap options = settings;
    options["mode"] = std::string(mode == WriteMode::Destroy ? "destroy" : "preserve");
    options.erase("confirm");
    if (mode == WriteMode::Destroy)
        options["confirm"] = std::string(contract::without_blanks_around(typed));
    return options;
}

std::string write_device_label(const DeviceEntry& device)
{
    std::string model = device.vendor.empty() ? device.model : device.vendor + " " + device.model;
    while (!model.empty() && model.back() == ' ')
        model.pop_back();
    return model.empty() ? device.node : model + " (" + device.node + ")";
}

} // namespace diskbench::client
