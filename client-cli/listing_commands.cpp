// SPDX-License-Identifier: GPL-3.0-or-later
// devices, benchmarks, jobs: what the daemon offers and runs.
#include "commands.hpp"
#include "error_output.hpp"
#include "daemon_session.hpp"
#include "json_lists.hpp"
#include "parameter_values.hpp"
#include "session_start.hpp"
#include "text_table.hpp"

#include "text/value_format.hpp"
#include "contract/byte_size.hpp"
#include "text/parameter_labels.hpp"
#include "text/printf_text.hpp"
#include "text/terminal_text.hpp"

#include <glib/gi18n-lib.h>

#include <cstdio>
#include <pwd.h>

namespace diskbench::cli {

namespace {

using client::printf_text;

std::string device_state_text(const client::DeviceEntry& device)
{
    std::string text;
    auto add = [&](const char* word) { text += (text.empty() ? "" : ", ") + std::string(word); };
    if (device.system_disk)
        add(_("system disk"));
    if (device.mounted)
        add(_("mounted"));
    else if (device.in_use)
        add(_("in use"));
    if (device.job != "/" && !device.job.empty())
        add(_("benchmark running"));
    return text.empty() ? "-" : text;
}

// "ann (1000)", or the number alone for a uid without a name here.
std::string owner_text(std::uint32_t uid)
{
    struct passwd entry {};
    struct passwd* found = nullptr;
    char buffer[1024];
    if (getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found)
        return std::string(found->pw_name) + " (" + std::to_string(uid) + ")";
    return std::to_string(uid);
}

// The link the daemon found (Device.Link, e.g. "PCIe 3.0 x4", "USB 2.0");
// a daemon older than API 0.4 has none, so its bus name stands in.
std::string link_text(const client::DeviceEntry& device)
{
    if (!device.link.empty())
        return device.link;
    return device.connection_bus.empty() ? "-" : device.connection_bus;
}

} // namespace

ExitCode devices_command(const CommandLine& line)
{
    auto session = start_session();
    if (!session)
        return exit_no_daemon;
    std::vector<client::DeviceEntry> devices;
    for (const auto& [path, device] : session->client().devices())
        devices.push_back(device);
    std::sort(devices.begin(), devices.end(), [](const auto& a, const auto& b) { return a.node < b.node; });
    if (line.json) {
        std::fputs(devices_json(devices).c_str(), stdout);
        return exit_ok;
    }
    TextTable table({ _("Node"), _("Model"), _("Size"), _("Link"), _("State") },
                    { TextTable::Align::Left, TextTable::Align::Left, TextTable::Align::Right });
    for (const client::DeviceEntry& device : devices) {
        std::string model = device.vendor.empty() ? device.model : device.vendor + " " + device.model;
        if (model.empty())
            model = device.kind;
        table.add_row({ device.node, model, client::format_value(static_cast<double>(device.size), client::Unit::Bytes),
                        link_text(device), device_state_text(device) });
    }
    std::fputs(table.render().c_str(), stdout);
    return exit_ok;
}

ExitCode benchmarks_command(const CommandLine& line)
{
    auto session = start_session();
    if (!session)
        return exit_no_daemon;
    const auto& all = session->client().benchmarks();
    if (line.args.empty()) {
        if (line.json) {
            std::fputs(benchmarks_json(all).c_str(), stdout);
            return exit_ok;
        }
        TextTable table({ _("Kind"), _("Target"), _("Title") });
        for (const client::BenchmarkInfo& info : all)
            table.add_row({ info.kind, info.target, info.title });
        std::fputs(table.render().c_str(), stdout);
        return exit_ok;
    }
    const client::BenchmarkInfo* info = session->client().benchmark(line.args.front());
    if (!info) {
        print_error(printf_text(_("no benchmark kind “%s” (see: diskbenchctl benchmarks)"), line.args.front().c_str()));
        return exit_usage;
    }
    if (line.json) {
        std::fputs(benchmarks_json({ *info }).c_str(), stdout);
        return exit_ok;
    }
    // The daemon's words: escaped like every text from outside.
    std::printf("%s (%s): %s\n%s\n\n", client::terminal_text(info->kind).c_str(),
                client::terminal_text(info->target).c_str(), client::terminal_text(info->title).c_str(),
                client::terminal_text(info->description).c_str());
    TextTable table({ _("Parameter"), _("Type"), _("Default"), _("Choices"), _("Description") });
    for (const client::ParameterInfo& parameter : info->parameters) {
        // Byte counts as the app shows them ("1 GiB"), which size= takes back.
        auto shown = [&](const SavedValue& value) {
            const auto* bytes = std::get_if<std::int64_t>(&value);
            return client::is_byte_parameter(parameter) && bytes && *bytes >= 0
                ? contract::byte_size_text(static_cast<std::uint64_t>(*bytes))
                : value_text(value);
        };
        std::string choices;
        for (const SavedValue& choice : parameter.choices)
            choices += (choices.empty() ? "" : ", ") + shown(choice);
        // The help in the user's language (--json keeps the daemon's words).
        table.add_row({ parameter.key, parameter.type, shown(parameter.default_value), choices.empty() ? "-" : choices,
                        client::parameter_help(parameter.description) });
    }
    std::fputs(table.render().c_str(), stdout);
    return exit_ok;
}

ExitCode jobs_command(const CommandLine& line)
{
    auto session = start_session();
    if (!session)
        return exit_no_daemon;
    std::vector<client::JobEntry> jobs;
    for (const auto& [path, job] : session->client().jobs())
        jobs.push_back(job);
    if (line.json) {
        std::fputs(jobs_json(jobs).c_str(), stdout);
        return exit_ok;
    }
    TextTable table({ _("Job"), _("Kind"), _("Target"), _("State"), _("Progress"), _("Owner") },
                    { TextTable::Align::Right, TextTable::Align::Left, TextTable::Align::Left, TextTable::Align::Left,
                      TextTable::Align::Right, TextTable::Align::Right });
    for (const client::JobEntry& job : jobs) {
        const std::string number = job.path.substr(job.path.rfind('/') + 1);
        // A folder job's folder is its owner's (Job.Target is empty for
        // others): show the device it is on.
        std::string target = job.target;
        if (target.empty())
            if (const client::DeviceEntry* device = session->client().device(job.device))
                target = job.in_directory() ? printf_text(_("a folder on %s"), device->node.c_str()) : device->node;
        table.add_row({ number, job.kind, target.empty() ? "-" : target, job.state,
                        printf_text("%d %%", static_cast<int>(job.progress * 100)), owner_text(job.owner) });
    }
    std::fputs(table.render().c_str(), stdout);
    return exit_ok;
}

} // namespace diskbench::cli
