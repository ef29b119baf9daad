// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "page_model.hpp"

#include <span>
#include <string_view>

namespace diskbench::client {

// The page model of KIND, or nullptr for a kind this app does not know (a
// newer daemon's): its page is then the generic one.
const PageModel* page_model(std::string_view kind) noexcept;

// Every kind the app has a page model for, in the order of its page list:
// the read kinds, then the folder kinds, then the raw device writes.
std::span<const PageModel* const> page_models() noexcept;

} // namespace diskbench::client
