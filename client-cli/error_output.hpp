// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace diskbench::cli {

// "diskbenchctl: TEXT" on stderr, TEXT escaped for the terminal
// (client/text/terminal_text): messages carry file names, the daemon's
// words and what a result file says.
void print_error(const std::string& text);

} // namespace diskbench::cli
