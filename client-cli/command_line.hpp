// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace diskbench::cli {

// diskbenchctl's command line, checked before anything talks to the bus:
// a wrong one exits 2 with `error` and costs no daemon start.
struct CommandLine {
    std::string command;            // "devices", "run", ... ("help" for --help)
    std::vector<std::string> args;  // positional arguments after the command
    bool json = false;
    bool keys = false;              // --keys: the raw summary keys too (run, watch, show)
    bool no_save = false;
    bool no_ask_password = false;
    std::optional<std::string> output;  // --output FILE
    std::optional<std::string> passes;  // --passes N, typed later from the kind's parameters
    std::optional<std::string> format;       // --format NAME (export: "openmetrics")
    std::optional<std::string> openmetrics;  // --openmetrics FILE (run, watch)
    std::optional<std::string> config;       // --config FILE (scheduled)
    std::optional<std::string> stage;        // --stage FILE (scheduled: metrics there, for --publish)
    std::optional<std::string> publish;      // --publish FILE (scheduled: the staged metrics to Output=)
    std::optional<unsigned> pause;           // --pause SECONDS (run-set: the rest between runs)
};

// Parses argv[1..]. On failure: nothing, and `error` says what is wrong.
std::optional<CommandLine> parse_command_line(const std::vector<std::string>& arguments, std::string& error);

// The usage text (--help), translated.
std::string usage_text();

} // namespace diskbench::cli
