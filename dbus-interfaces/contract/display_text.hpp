// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace diskbench::contract {

// Text from outside (a folder's name as /proc shows it, a device's model
// from udisks, anything a result file holds) made fit to be sent as a D-Bus
// string and shown to people: the daemon's polkit details, error messages
// and GetTarget(); the clients' terminal output (client/text/terminal_text).
//
// A folder may be called anything but "/" and NUL: bytes that are not UTF-8
// (an old Latin-1 name), or UTF-8 with a noncharacter (U+FDD0..U+FDEF,
// U+xFFFE, U+xFFFF), which the D-Bus specification allows but sd-bus
// refuses to send. Sent as it is, any message carrying the name fails to
// build: polkit could not be asked, and the caller got "Failed" for a
// folder it may use. Every byte that is not part of a character sd-bus
// sends, and every control character (C0 and DEL), becomes "\xNN" (a
// backslash "\\"), so the name stays recognisable and a crafted name
// cannot add lines to a dialog.
//
// With `c1`, the C1 controls U+0080..U+009F (valid UTF-8, but a terminal
// reads U+009B as CSI, the start of an escape sequence) are escaped too,
// each of their two bytes as "\xNN".
enum class Controls { C0, C0AndC1 };
std::string display_text(std::string_view text, Controls controls = Controls::C0);

} // namespace diskbench::contract
