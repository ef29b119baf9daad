// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "bus_errors.hpp"
#include "polkit_authority.hpp"

#include <optional>
#include <string>

namespace diskbench::service {

// The D-Bus error for a polkit answer, or nothing when it was a yes.
std::optional<Refusal> authorization_error(Authorization answer, const std::string& action_id,
                                                const std::string& detail);

} // namespace diskbench::service
