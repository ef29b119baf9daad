// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace diskbench::service {

// Text the daemon got from the system, not from the bus (a folder's name as
// /proc shows it), made fit to be sent as a D-Bus string and shown to people
// (polkit's dialog, error messages, GetTarget()).
//
// A folder may be called anything but "/" and NUL: bytes that are not UTF-8
// (an old Latin-1 name), or UTF-8 with a noncharacter (U+FDD0..U+FDEF,
// U+xFFFE, U+xFFFF), which the D-Bus specification allows but sd-bus
// refuses to send. Sent as it is, any message carrying the name fails to
// build: polkit could not be asked, and the caller got "Failed" for a
// folder it may use. Every byte that is not part of a character sd-bus
// sends, and every control character (C0, DEL and the C1 controls
// U+0080..U+009F, which terminals obey too), becomes "\xNN" per byte (a
// backslash "\\"),
// so the name stays recognisable and a crafted name cannot add lines to a
// dialog.
std::string display_text(std::string_view text);

} // namespace diskbench::service
