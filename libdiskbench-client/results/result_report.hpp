// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <functional>
#include <string>
#include <string_view>

// One result as text, the same for both clients: what `diskbenchctl run`
// and `show` print, and what the app's Copy as text (Ctrl+C) puts on the
// clipboard. What the app shows, in its order: the heading (kind, target,
// state, date), the headline ("average access time 0.42 ms · p50 0.40 ms ·
// p99 1.2 ms · p99.9 4.2 ms"), the figures named and with their units
// ("p99.9 latency  420 ms", "Data moved  1.2 GiB"), what a scan or a
// capacity check found, the checks as ✓/⚠ lines, the warnings and notes
// the checks do not cover, and the device line (model, node, size, stack).
// The raw summary keys are in the JSON (and behind diskbenchctl --keys).
namespace diskbench::client {

// Every piece of text from outside the client (a result file may hold
// anything) goes through it: the CLI escapes control characters
// (terminal_text), the clipboard takes them as they are.
using OutsideText = std::function<std::string(std::string_view)>;

std::string result_report(const SavedResult& result, const OutsideText& outside);

// The end every result's text shares: the checks as ✓/⚠ lines, the
// warnings the checks do not cover, the notes, then the device line.
std::string result_report_footer(const SavedResult& result, const OutsideText& outside);

// "seek on /dev/sdb: finished  (27 Nov 2026 21:04, 3.2 s)  backend io_uring"
std::string result_heading(const SavedResult& result, const OutsideText& outside);

// The node of a device result ("/dev/sdb"), "folder PATH" for a folder.
std::string result_target_text(const SavedResult& result);

} // namespace diskbench::client
