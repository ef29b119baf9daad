// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

// The scheduled runs' last step: the metrics file the unprivileged service
// wrote into its own state directory is moved into node_exporter's textfile
// directory, which belongs to root (Debian: /var/lib/prometheus/
// node-exporter, root:root 0755, in /var/lib/prometheus, which is the
// prometheus user's). The unit runs this step, and only this one, as root
// (ExecStopPost=+), so it trusts nothing about the staged file or the way
// to the textfile directory but what it checks here.
namespace diskbench::cli {

struct PublishOutcome {
    bool published = false; // false and no error: nothing was staged
    std::string error;      // translated, "" when none
};

// Reads STAGED without following a link, only when it is a regular file
// of the same owner as its directory (not a hard link to someone else's
// file), at most a few MiB, a whole metrics file (ending in "# EOF") and
// nothing but diskbench's own metrics (metrics_lines.hpp); opens OUTPUT's
// directory without following any link, only when nobody but root can have
// put it there or write to it (textfile_directory.hpp); writes the file in
// that directory through a temporary file and a rename, mode 0644 (the
// collector runs as its own user); then removes STAGED, so a later run that
// fails early publishes nothing stale. Any refusal writes nothing.
PublishOutcome publish_metrics(const std::string& staged, const std::string& output);

// Writes TEXT to STAGED for publish_metrics (the same atomic write), or
// removes a stale STAGED when TEXT is empty. Returns "" or a message.
std::string stage_metrics(const std::string& staged, const std::string& text);

} // namespace diskbench::cli
