// SPDX-License-Identifier: GPL-3.0-or-later
#include "command_line.hpp"

#include "results/run_set.hpp"
#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace diskbench::cli {

namespace {

using client::printf_text;

struct CommandShape {
    std::string_view name;
    std::size_t min_args, max_args; // max: SIZE_MAX for KEY=VALUE lists
    bool json, save, passes;        // which options it takes
    bool metrics = false;           // --openmetrics FILE (run, watch)
    bool format = false;            // --format NAME and --output FILE (export)
    bool scheduled = false;         // --config, --stage, --publish (scheduled)
};

constexpr std::size_t many = static_cast<std::size_t>(-1);

constexpr std::array commands {
    CommandShape { "devices", 0, 0, true, false, false },
    CommandShape { "info", 1, 1, true, false, false },
    CommandShape { "benchmarks", 0, 1, true, false, false },
    CommandShape { "run", 2, many, true, true, true, true },
    CommandShape { "run-set", 2, 2, true, true, false },
    CommandShape { "jobs", 0, 0, true, false, false },
    CommandShape { "watch", 1, 1, true, true, false, true },
    CommandShape { "cancel", 1, 1, false, false, false },
    CommandShape { "history", 0, 1, true, false, false },
    CommandShape { "show", 1, 1, true, false, false },
    CommandShape { "compare", 2, 2, true, false, false },
    CommandShape { "export", 1, many, false, false, false, false, true },
    CommandShape { "scheduled", 0, 0, false, false, false, false, false, true },
    CommandShape { "help", 0, 0, false, false, false },
};

} // namespace

std::optional<CommandLine> parse_command_line(const std::vector<std::string>& arguments, std::string& error)
{
    CommandLine line;
    bool only_positional = false;
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < arguments.size(); ++i) {
        const std::string& argument = arguments[i];
        if (only_positional || argument.size() < 2 || argument[0] != '-') {
            positional.push_back(argument);
            continue;
        }
        // --output FILE and --output=FILE alike.
        std::string name = argument;
        std::optional<std::string> attached;
        if (const auto equals = argument.find('='); equals != std::string::npos && argument.starts_with("--")) {
            name = argument.substr(0, equals);
            attached = argument.substr(equals + 1);
        }
        auto take_value = [&]() -> std::optional<std::string> {
            if (attached)
                return attached;
            if (i + 1 >= arguments.size()) {
                error = printf_text(_("%s needs a value"), name.c_str());
                return std::nullopt;
            }
            return arguments[++i];
        };
        auto flag = [&](bool& target) {
            if (attached) {
                error = printf_text(_("%s takes no value"), name.c_str());
                return false;
            }
            target = true;
            return true;
        };
        if (name == "--") {
            only_positional = true;
        } else if (name == "--json") {
            if (!flag(line.json))
                return std::nullopt;
        } else if (name == "--keys") {
            if (!flag(line.keys))
                return std::nullopt;
        } else if (name == "--no-save") {
            if (!flag(line.no_save))
                return std::nullopt;
        } else if (name == "--no-ask-password") {
            if (!flag(line.no_ask_password))
                return std::nullopt;
        } else if (name == "--output" || name == "-o") {
            if (!(line.output = take_value()))
                return std::nullopt;
        } else if (name == "--passes") {
            if (!(line.passes = take_value()))
                return std::nullopt;
        } else if (name == "--format") {
            if (!(line.format = take_value()))
                return std::nullopt;
        } else if (name == "--openmetrics") {
            if (!(line.openmetrics = take_value()))
                return std::nullopt;
        } else if (name == "--config") {
            if (!(line.config = take_value()))
                return std::nullopt;
        } else if (name == "--stage") {
            if (!(line.stage = take_value()))
                return std::nullopt;
        } else if (name == "--publish") {
            if (!(line.publish = take_value()))
                return std::nullopt;
        } else if (name == "--pause") {
            const auto value = take_value();
            if (!value)
                return std::nullopt;
            guint64 seconds = 0;
            if (!g_ascii_string_to_unsigned(value->c_str(), 10, 0, client::max_run_set_pause_s, &seconds, nullptr)) {
                error = printf_text(_("--pause takes seconds from 0 to %u, not “%s”"), client::max_run_set_pause_s,
                                    value->c_str());
                return std::nullopt;
            }
            line.pause = static_cast<unsigned>(seconds);
        } else if (name == "--help" || name == "-h") {
            line.command = "help";
            return line;
        } else {
            error = printf_text(_("unknown option %s"), argument.c_str());
            return std::nullopt;
        }
    }
    if (positional.empty()) {
        error = _("no command given (try --help)");
        return std::nullopt;
    }
    line.command = positional.front();
    line.args.assign(positional.begin() + 1, positional.end());
    const auto shape = std::find_if(commands.begin(), commands.end(),
                                    [&](const CommandShape& c) { return c.name == line.command; });
    if (shape == commands.end()) {
        error = printf_text(_("unknown command “%s” (try --help)"), line.command.c_str());
        return std::nullopt;
    }
    if (line.args.size() < shape->min_args) {
        error = printf_text(_("%s: missing arguments (try --help)"), line.command.c_str());
        return std::nullopt;
    }
    if (line.args.size() > shape->max_args) {
        error = printf_text(_("%s: too many arguments (try --help)"), line.command.c_str());
        return std::nullopt;
    }
    const char* refused = nullptr;
    if (line.json && !shape->json)
        refused = "--json";
    else if (line.output && !shape->save && !shape->format)
        refused = "--output";
    else if (line.no_save && !shape->save)
        refused = "--no-save";
    else if (line.passes && !shape->passes)
        refused = "--passes";
    else if (line.openmetrics && !shape->metrics)
        refused = "--openmetrics";
    else if (line.keys && shape->name != "run" && shape->name != "watch" && shape->name != "show")
        refused = "--keys";
    else if (line.format && !shape->format)
        refused = "--format";
    else if (line.config && !shape->scheduled)
        refused = "--config";
    else if (line.stage && !shape->scheduled)
        refused = "--stage";
    else if (line.publish && !shape->scheduled)
        refused = "--publish";
    else if (line.pause && shape->name != "run-set")
        refused = "--pause";
    if (refused) {
        error = printf_text(_("%s: %s does not apply here"), line.command.c_str(), refused);
        return std::nullopt;
    }
    if (line.stage && line.publish) {
        error = _("scheduled: --stage and --publish are two steps; give one");
        return std::nullopt;
    }
    if (shape->format && line.format.value_or("") != "openmetrics" && line.format.value_or("") != "csv") {
        error = line.format ? printf_text(_("unknown format “%s” (known: openmetrics, csv)"), line.format->c_str())
                            : printf_text(_("%s needs --format (openmetrics or csv)"), line.command.c_str());
        return std::nullopt;
    }
    if (line.format.value_or("") == "csv" && line.args.size() != 1) {
        error = _("export --format=csv: one result file at a time");
        return std::nullopt;
    }
    return line;
}

std::string usage_text()
{
    return _("Usage: diskbenchctl [OPTIONS] COMMAND [ARGUMENTS]\n"
             "\n"
             "Commands:\n"
             "  devices                     list the block devices diskbenchd offers\n"
             "  info DEVICE                 one device: its link, stack, temperature and health\n"
             "  benchmarks [KIND]           list benchmark kinds and their parameters\n"
             "  run KIND TARGET [KEY=VALUE…]  run a benchmark on a device node or in a folder\n"
             "  run-set SET DEVICE          run a set of read benchmarks one after another, kept as one\n"
             "                              result: quick, full-read, custom, or KIND,KIND…\n"
             "  jobs                        list the daemon's jobs\n"
             "  watch JOB                   follow a running job to its end\n"
             "  cancel JOB                  stop a job\n"
             "  history [DEVICE]            list the results kept for you\n"
             "  show FILE                   print a result file\n"
             "  compare A B                 compare two result files\n"
             "  export --format=openmetrics FILE…\n"
             "                              result files as Prometheus metrics (node_exporter)\n"
             "  export --format=csv FILE    a result's series as CSV, one file per series\n"
             "  scheduled                   the scheduled read benchmarks of /etc/diskbench/scheduled.conf\n"
             "                              (diskbench-scheduled.service runs it)\n"
             "\n"
             "Options:\n"
             "  --json                      print JSON (results in the app's result-file format)\n"
             "  --keys                      also print the result's raw summary keys (run, watch, show)\n"
             "  --output FILE, -o FILE      also write the result to FILE (run, watch; export: instead of\n"
             "                              standard output)\n"
             "  --no-save                   do not keep the result in your history (run, watch)\n"
             "  --passes N                  set the kind's “passes” parameter (run)\n"
             "  --openmetrics FILE          also write the result as Prometheus metrics (run, watch)\n"
             "  --format NAME               the export's format: openmetrics or csv (export)\n"
             "  --config FILE               the scheduled runs' configuration (scheduled)\n"
             "  --stage FILE                write the metrics to FILE for --publish (scheduled)\n"
             "  --publish FILE              move the metrics staged in FILE to Output= (scheduled)\n"
             "  --pause SECONDS             the rest between a set's benchmarks, 0–600 (run-set; default 5)\n"
             "  --no-ask-password           never ask for a password; fail instead\n"
             "  --help, -h                  show this text\n"
             "\n"
             "See diskbenchctl(1) for the exit statuses.\n");
}

} // namespace diskbench::cli
