// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kinds/kind_presentation.hpp"

#include <span>
#include <string_view>

namespace diskbench::client {

// The presentation of KIND, or nullptr for a kind this client does not
// know (a newer daemon's): callers then show what every kind shares and
// the daemon's own title and description.
const KindPresentation* kind_presentation(std::string_view kind) noexcept;

// Every kind this client presents, in the order of the app's pages.
std::span<const KindPresentation* const> kind_presentations() noexcept;

} // namespace diskbench::client
