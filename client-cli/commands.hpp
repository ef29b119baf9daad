// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command_line.hpp"
#include "exit_codes.hpp"

namespace diskbench::cli {

// One function per subcommand; each prints its own messages and returns
// the exit status. The ones that need the daemon connect themselves, so
// `show`, `compare` and `history` work without a bus.
ExitCode devices_command(const CommandLine& line);
ExitCode info_command(const CommandLine& line);
ExitCode benchmarks_command(const CommandLine& line);
ExitCode run_command(const CommandLine& line);
ExitCode run_set_command(const CommandLine& line);
ExitCode jobs_command(const CommandLine& line);
ExitCode watch_command(const CommandLine& line);
ExitCode cancel_command(const CommandLine& line);
ExitCode history_command(const CommandLine& line);
ExitCode show_command(const CommandLine& line);
ExitCode compare_command(const CommandLine& line);
ExitCode export_command(const CommandLine& line);
ExitCode scheduled_command(const CommandLine& line);

} // namespace diskbench::cli
