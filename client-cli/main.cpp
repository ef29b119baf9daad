// SPDX-License-Identifier: GPL-3.0-or-later
// diskbenchctl: the command-line client of diskbenchd (see diskbenchctl.1).
#include "command_line.hpp"
#include "commands.hpp"
#include "error_output.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <clocale>
#include <cstdio>
#include <cstdlib>

using namespace diskbench::cli;

int main(int argc, char** argv)
{
    std::setlocale(LC_ALL, "");
    // DISKBENCH_LOCALEDIR in the environment: the build tree's translations
    // (po/), so the integration tests can run diskbenchctl in Czech before
    // installing (as the app's main.cpp does for the GUI tests).
    const char* localedir = std::getenv("DISKBENCH_LOCALEDIR");
    bindtextdomain(GETTEXT_PACKAGE, localedir && *localedir ? localedir : DISKBENCH_LOCALEDIR);
    bind_textdomain_codeset(GETTEXT_PACKAGE, "UTF-8");
    textdomain(GETTEXT_PACKAGE);
    // The app's D-Bus layer logs odd replies with g_message; a command line
    // shows its own errors, so only warnings and worse get through.
    if (!g_getenv("G_MESSAGES_DEBUG"))
        g_log_set_handler(nullptr, G_LOG_LEVEL_MESSAGE, [](const gchar*, GLogLevelFlags, const gchar*, gpointer) {},
                          nullptr);

    std::string error;
    const auto line = parse_command_line(std::vector<std::string>(argv + 1, argv + argc), error);
    if (!line) {
        print_error(error);
        return exit_usage;
    }
    const std::string& command = line->command;
    if (command == "help") {
        std::fputs(usage_text().c_str(), stdout);
        return exit_ok;
    }
    if (command == "devices")
        return devices_command(*line);
    if (command == "info")
        return info_command(*line);
    if (command == "benchmarks")
        return benchmarks_command(*line);
    if (command == "run")
        return run_command(*line);
    if (command == "run-set")
        return run_set_command(*line);
    if (command == "jobs")
        return jobs_command(*line);
    if (command == "watch")
        return watch_command(*line);
    if (command == "cancel")
        return cancel_command(*line);
    if (command == "history")
        return history_command(*line);
    if (command == "show")
        return show_command(*line);
    if (command == "compare")
        return compare_command(*line);
    if (command == "export")
        return export_command(*line);
    if (command == "scheduled")
        return scheduled_command(*line);
    return exit_usage; // parse_command_line knows no other command
}
