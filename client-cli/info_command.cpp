// SPDX-License-Identifier: GPL-3.0-or-later
// info DEVICE: one device's facts, link, stack, temperature and health,
// as the app's Info page shows them.
#include "commands.hpp"
#include "error_output.hpp"
#include "daemon_session.hpp"
#include "json_lists.hpp"
#include "session_start.hpp"

#include "results/drive_health.hpp"
#include "results/recent_results.hpp"
#include "text/printf_text.hpp"
#include "text/value_format.hpp"

#include <glib/gi18n-lib.h>

#include <cstdio>

namespace diskbench::cli {

using client::printf_text;

ExitCode info_command(const CommandLine& line)
{
    auto session = start_session();
    if (!session)
        return exit_no_daemon;
    const client::DeviceEntry* device = session->client().device_by_node(line.args.front());
    if (!device) {
        print_error(printf_text(_("%s is not a device diskbenchd offers (see: diskbenchctl devices)"),
                                line.args.front().c_str()));
        return exit_not_found;
    }
    if (line.json) {
        const std::string text = devices_json({ *device });
        // The one device, not a list of one.
        const auto open = text.find('{'), close = text.rfind('}');
        std::fputs((text.substr(open, close - open + 1) + "\n").c_str(), stdout);
        return exit_ok;
    }
    std::string model = device->vendor.empty() ? device->model : device->vendor + " " + device->model;
    std::string text = device->node + " – " + (model.empty() ? device->kind : model);
    if (!device->serial.empty())
        text += printf_text(_(" (serial %s)"), device->serial.c_str());
    text += ", " + client::format_value(static_cast<double>(device->size), client::Unit::Bytes) + "\n";
    if (!device->link.empty())
        text += device->link_limit_mb_s > 0
            ? printf_text(_("Link: %s, at most %.0f MB/s\n"), device->link.c_str(), device->link_limit_mb_s)
            : printf_text(_("Link: %s\n"), device->link.c_str());
    std::string stack;
    for (const std::string& layer : device->stack)
        stack += (stack.empty() ? "" : " → ") + layer;
    if (!stack.empty())
        text += printf_text(_("Stack: %s\n"), stack.c_str());
    if (!device->write_cache.empty())
        text += printf_text(_("Write cache: %s\n"), device->write_cache.c_str());
    text += device->temperature_source.empty()
        ? std::string(_("Temperature: no sensor\n"))
        : printf_text(_("Temperature: %.1f °C (%s)\n"), device->temperature, device->temperature_source.c_str());
    client::RecentResults recent;
    recent.reload();
    const client::HealthVerdict health = client::device_health(*device, recent.results());
    text += health.known ? printf_text(_("Health: %s\n"), health.summary.c_str())
                         : std::string(_("Health: not reported by this drive\n"));
    if (health.warn)
        text += "⚠ " + health.warning + "\n";
    std::fputs(text.c_str(), stdout);
    return exit_ok;
}

} // namespace diskbench::cli
