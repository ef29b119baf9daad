// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The "checks" card of a result: what the engine's block-layer cross-check,
// link and stack checks found (docs/checks.md), as a few lines, each
// passed or a warning with its figures. Built from the summary keys and
// warnings a job or a saved result file carries, so a reopened result
// shows the same card.

#include "types/daemon_types.hpp"

#include <string>
#include <vector>

namespace diskbench::client {

struct CheckLine {
    bool passed = true;
    std::string text; // translated, with the figures
};

struct ResultChecks {
    std::vector<CheckLine> lines;
    // The result's warnings the card shows, so the message area need not
    // repeat them.
    std::vector<std::string> shown_warnings;
};

ResultChecks result_checks(const SavedValueMap& summary, const std::vector<std::string>& warnings);

// The card as text: one line per check, "✓ " or "⚠ " first.
std::string checks_text(const ResultChecks& checks);

// `warnings` without those the card shows.
std::vector<std::string> warnings_outside(const ResultChecks& checks, const std::vector<std::string>& warnings);

} // namespace diskbench::client
