// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace diskbench::client {

// Text from outside the client (a result file, the daemon, a device's
// model and serial from udisks) as a terminal may show it: every control
// character (C0, DEL, C1), every byte that is not UTF-8 and the backslash
// become "\xNN" / "\\", so nothing it holds can set the terminal's title,
// clear the screen, move the cursor or start a line of its own. The one
// escaping of the clients' terminal output, with the daemon's rules for
// the text it sends (contract/display_text.hpp) plus C1. Escape each piece
// once, where it is put into the output.
std::string terminal_text(std::string_view text);

} // namespace diskbench::client
