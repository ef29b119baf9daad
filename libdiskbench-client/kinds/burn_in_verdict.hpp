// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

// Whether a burn-in (the daemon's "burn-in" kind, API 0.18) failed the drive:
// the app's verdict line and diskbenchctl's exit status read it the same way.
namespace diskbench::client {

// True for a finished burn-in whose verdict is "fail"; false for a pass,
// another kind or a cancelled run.
bool burn_in_failed(const SavedResult& result);

} // namespace diskbench::client
