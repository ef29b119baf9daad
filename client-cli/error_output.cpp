// SPDX-License-Identifier: GPL-3.0-or-later
#include "error_output.hpp"

#include "text/terminal_text.hpp"

#include <cstdio>

namespace diskbench::cli {

void print_error(const std::string& text)
{
    std::fprintf(stderr, "diskbenchctl: %s\n", client::terminal_text(text).c_str());
}

} // namespace diskbench::cli
