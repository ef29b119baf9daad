// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string_view>

namespace diskbench::cli {

// diskbenchctl's exit statuses, one per outcome a script may want to tell
// apart. The man page (diskbenchctl.1, EXIT STATUS) lists the same table;
// keep them in step. The numbers are API: never renumber.
enum ExitCode : int {
    exit_ok = 0,
    exit_failed = 1,          // the job failed, or Error.Failed, or anything not below
    exit_usage = 2,           // bad command line: unknown command, kind, key, value
    exit_not_authorized = 3,  // Error.NotAuthorized (also a wrong password)
    exit_can_obtain = 4,      // Error.NotAuthorizedCanObtain: a password would do, none could be asked
    exit_dismissed = 5,       // Error.NotAuthorizedDismissed: the password prompt was dismissed
    exit_invalid_argument = 6, // Error.InvalidArgument: the daemon refused a value
    exit_not_found = 7,       // Error.NotFound: no such device, kind or job
    exit_device_busy = 8,     // Error.DeviceBusy
    exit_permission_denied = 9, // Error.PermissionDenied: the folder is not writable for the caller
    exit_no_space = 10,       // Error.NoSpace
    exit_limits_exceeded = 11, // Error.LimitsExceeded
    exit_cancelled = 12,      // the job was cancelled (also by Ctrl-C)
    exit_no_daemon = 13,      // the bus or diskbenchd cannot be reached, or another D-Bus error
    exit_file = 14,           // a result file cannot be read or written
    exit_bad_blocks = 15,     // the job finished and found bad blocks (a surface scan of a failing drive)
    exit_capacity_lost = 16,  // the job finished and found the device smaller than it claims (verify-capacity)
    exit_burn_in_failed = 17, // the job finished and the drive failed its burn-in (lost, misplaced, unreadable or slow blocks)
};

// The exit status for a D-Bus error name (the daemon's, or the bus's own
// org.freedesktop.DBus.Error.* which all mean "cannot reach the daemon").
ExitCode exit_code_for_error(std::string_view error_name) noexcept;

} // namespace diskbench::cli
