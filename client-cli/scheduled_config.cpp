// SPDX-License-Identifier: GPL-3.0-or-later
#include "scheduled_config.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <sstream>

namespace diskbench::cli {

namespace {

using client::printf_text;

constexpr const char* main_group = "Scheduled";
constexpr std::string_view kind_group_prefix = "Kind ";

struct KeyFileFree {
    void operator()(GKeyFile* file) const { g_key_file_free(file); }
};
struct StrvFree {
    void operator()(gchar** strv) const { g_strfreev(strv); }
};

// The line (1-based) of KEY in GROUP, for messages; 0 when not found.
int line_of(const std::string& text, const std::string& group, const std::string& key)
{
    std::istringstream in(text);
    std::string line, current;
    for (int number = 1; std::getline(in, line); ++number) {
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#')
            continue;
        if (line[first] == '[') {
            current = line.substr(first + 1, line.find(']') - first - 1);
            continue;
        }
        const auto equals = line.find('=');
        if (current == group && equals != std::string::npos) {
            std::string name = line.substr(first, equals - first);
            name.erase(name.find_last_not_of(" \t") + 1);
            if (name == key)
                return number;
        }
    }
    return 0;
}

// The line (1-based) of GROUP's header, for messages; 0 when not found.
int group_line(const std::string& text, const std::string& group)
{
    std::istringstream in(text);
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const auto first = line.find_first_not_of(" \t");
        if (first != std::string::npos && line[first] == '['
            && line.substr(first + 1, line.find(']') - first - 1) == group)
            return number;
    }
    return 0;
}

// "NAME:LINE: key Devices: ..." as compilers say it, so editors jump there.
std::string key_error(const std::string& text, const std::string& name, const std::string& group,
                      const std::string& key, const std::string& why)
{
    return printf_text(_("%s:%d: [%s] %s: %s"), name.c_str(), line_of(text, group, key), group.c_str(), key.c_str(),
                       why.c_str());
}

std::optional<DeviceRule> device_rule(const std::string& entry)
{
    static const std::pair<std::string_view, DeviceRule::Kind> prefixes[] {
        { "model:", DeviceRule::Kind::Model },
        { "serial:", DeviceRule::Kind::Serial },
        { "by-id:", DeviceRule::Kind::ById },
    };
    if (entry == "all")
        return DeviceRule { DeviceRule::Kind::All, {} };
    if (entry.starts_with("/dev/") && entry.size() > 5)
        return DeviceRule { DeviceRule::Kind::Node, entry };
    for (const auto& [prefix, kind] : prefixes)
        if (entry.starts_with(prefix) && entry.size() > prefix.size())
            return DeviceRule { kind, entry.substr(prefix.size()) };
    return std::nullopt;
}

bool is_read_only_device_kind(std::string_view kind)
{
    const auto& all = contract::kinds::all;
    const auto& folders = contract::kinds::folder_kinds;
    return std::find(all.begin(), all.end(), kind) != all.end() && !contract::kinds::writes_device(kind)
        && std::find(folders.begin(), folders.end(), kind) == folders.end();
}

} // namespace

std::optional<ScheduledConfig> parse_scheduled_config(const std::string& text, const std::string& name,
                                                      std::string& error)
{
    std::unique_ptr<GKeyFile, KeyFileFree> file(g_key_file_new());
    GError* gerror = nullptr;
    // KEEP_TRANSLATIONS: without it GKeyFile drops every KEY[LOCALE] of
    // another locale than the process's, so "write[en]=true" would vanish
    // instead of being refused, depending on LANG; kept, they are refused below.
    if (!g_key_file_load_from_data(file.get(), text.data(), text.size(), G_KEY_FILE_KEEP_TRANSLATIONS,
                                   &gerror)) {
        error = printf_text(_("%s: %s"), name.c_str(), gerror->message);
        g_error_free(gerror);
        return std::nullopt;
    }
    ScheduledConfig config;
    // The kinds named in Kinds=, with their groups' parameters; the default
    // is a short, read-only pair.
    std::vector<std::string> kind_names { std::string(contract::kinds::seek), std::string(contract::kinds::profile) };

    std::unique_ptr<gchar*, StrvFree> groups(g_key_file_get_groups(file.get(), nullptr));
    for (gchar** g = groups.get(); *g; ++g) {
        const std::string group = *g;
        const bool is_main = group == main_group;
        if (!is_main && !group.starts_with(kind_group_prefix)) {
            error = printf_text(_("%s:%d: unknown group [%s] (known: [Scheduled], [Kind NAME])"), name.c_str(),
                                group_line(text, group), group.c_str());
            return std::nullopt;
        }
        std::unique_ptr<gchar*, StrvFree> keys(g_key_file_get_keys(file.get(), *g, nullptr, nullptr));
        for (gchar** k = keys.get(); *k; ++k) {
            const std::string key = *k;
            std::unique_ptr<gchar, decltype(&g_free)> raw(g_key_file_get_value(file.get(), *g, *k, nullptr), g_free);
            const std::string value = raw ? raw.get() : "";
            auto fail = [&](const std::string& why) {
                error = key_error(text, name, group, key, why);
                return std::nullopt;
            };
            // A translation of a key (KEY[LOCALE]) is no setting of ours,
            // in any group: a kind's "write[en]" must not slip past the
            // check of "write" below.
            if (key.find_first_of("[]") != std::string::npos)
                return fail(_("a localized key (KEY[LOCALE]) is not a setting of this file"));
            if (!is_main)
                continue; // a kind's parameters: taken below, typed against the daemon's list later
            if (key == "Devices" || key == "Kinds") {
                std::unique_ptr<gchar*, StrvFree> list(
                    g_key_file_get_string_list(file.get(), *g, *k, nullptr, nullptr));
                std::vector<std::string> entries;
                for (gchar** e = list.get(); e && *e; ++e) {
                    std::string entry = g_strstrip(*e);
                    if (!entry.empty())
                        entries.push_back(entry);
                }
                if (entries.empty())
                    return fail(_("needs at least one entry"));
                if (key == "Devices") {
                    config.devices.clear();
                    for (const auto& entry : entries) {
                        const auto rule = device_rule(entry);
                        if (!rule)
                            return fail(printf_text(
                                _("“%s” is none of all, model:GLOB, serial:SERIAL, by-id:GLOB, /dev/NODE"),
                                entry.c_str()));
                        config.devices.push_back(*rule);
                    }
                } else {
                    for (const auto& entry : entries)
                        if (!is_read_only_device_kind(entry))
                            return fail(printf_text(
                                _("“%s” is not a read benchmark of a device (scheduled runs never write)"),
                                entry.c_str()));
                    kind_names = entries;
                }
            } else if (key == "Output") {
                if (!g_path_is_absolute(value.c_str()) || value.ends_with("/"))
                    return fail(_("needs an absolute file name"));
                config.output = value;
            } else if (key == "QuietMaxBusyPercent") {
                char* end = nullptr;
                const double percent = g_ascii_strtod(value.c_str(), &end);
                if (value.empty() || *end || !std::isfinite(percent) || percent < 0 || percent > 100)
                    return fail(_("needs a number from 0 to 100"));
                config.quiet_max_busy_percent = percent;
            } else if (key == "QuietWindowSeconds") {
                guint64 seconds = 0;
                if (!g_ascii_string_to_unsigned(value.c_str(), 10, 1, 600, &seconds, nullptr))
                    return fail(_("needs a whole number of seconds from 1 to 600"));
                config.quiet_window_seconds = static_cast<unsigned>(seconds);
            } else {
                return fail(_("unknown key (known: Devices, Kinds, Output, QuietMaxBusyPercent, QuietWindowSeconds)"));
            }
        }
    }

    for (const auto& kind : kind_names) {
        ScheduledKind scheduled { kind, {} };
        const std::string group = std::string(kind_group_prefix) + kind;
        if (g_key_file_has_group(file.get(), group.c_str())) {
            std::unique_ptr<gchar*, StrvFree> keys(g_key_file_get_keys(file.get(), group.c_str(), nullptr, nullptr));
            for (gchar** k = keys.get(); *k; ++k) {
                // A read kind's opt-in writes (writes_when): never here.
                if (!contract::kinds::writes_when(kind).empty() && *k == contract::kinds::writes_when(kind)) {
                    error = printf_text(_("%s: [%s]: %s= would write to the device (scheduled runs never write)"),
                                        name.c_str(), group.c_str(), *k);
                    return std::nullopt;
                }
                std::unique_ptr<gchar, decltype(&g_free)> raw(
                    g_key_file_get_value(file.get(), group.c_str(), *k, nullptr), g_free);
                scheduled.assignments.push_back(std::string(*k) + "=" + (raw ? raw.get() : ""));
            }
        } else if (kind == contract::kinds::profile) {
            // The scheduler's own default, not the kind's (diskbenchctl's
            // runs in the background, so it lives here): short, 2 s a test
            // instead of CrystalDiskMark's 5.
            scheduled.assignments = { "duration_s=2" };
        }
        config.kinds.push_back(std::move(scheduled));
    }
    // A [Kind X] group for a kind that does not run is a mistake in the file.
    for (gchar** g = groups.get(); *g; ++g) {
        const std::string group = *g;
        if (!group.starts_with(kind_group_prefix))
            continue;
        const std::string kind = group.substr(kind_group_prefix.size());
        if (std::find(kind_names.begin(), kind_names.end(), kind) == kind_names.end()) {
            error = printf_text(_("%s: [%s]: %s is not in Kinds="), name.c_str(), group.c_str(), kind.c_str());
            return std::nullopt;
        }
    }
    return config;
}

bool device_matches(const DeviceRule& rule, const DeviceIdentity& device)
{
    switch (rule.kind) {
    case DeviceRule::Kind::All:
        return !device.removable && !device.not_a_drive;
    case DeviceRule::Kind::Model:
        return !device.model.empty() && fnmatch(rule.pattern.c_str(), device.model.c_str(), 0) == 0;
    case DeviceRule::Kind::Serial:
        return !device.serial.empty() && device.serial == rule.pattern;
    case DeviceRule::Kind::ById:
        return !device.by_id.empty() && fnmatch(rule.pattern.c_str(), device.by_id.c_str(), 0) == 0;
    case DeviceRule::Kind::Node:
        return device.node == rule.pattern;
    }
    return false;
}

} // namespace diskbench::cli
