// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_consent.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::string_view trimmed(std::string_view text)
{
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

} // namespace

bool erases_only(const BenchmarkInfo& info)
{
    if (info.kind == "sustained-write" || info.kind == "device-write-sweep")
        return true;
    for (const ParameterInfo& p : info.parameters)
        if (p.key == "mode")
            if (const auto* mode = std::get_if<std::string>(&p.default_value))
                return *mode == "destroy";
    return false;
}

std::string write_confirmation(const DeviceEntry& device)
{
    const std::string_view serial = trimmed(device.serial);
    return std::string(serial.empty() ? std::string_view(device.node) : serial);
}

bool write_confirmed(const DeviceEntry& device, std::string_view typed)
{
    const std::string expected = write_confirmation(device);
    return !expected.empty() && trimmed(typed) == expected;
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
        options["confirm"] = std::string(trimmed(typed));
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
