// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "benchmark_pages.hpp"

#include <string_view>

namespace diskbench::client {

// The groups of the window's page list, in the list's order: what a user
// looks for first (one click for the three numbers), then by what a
// benchmark does to the disk, then the drive itself.
enum class PageGroup { Overview, Read, Write, Filesystem, Drive };

// The window's non-benchmark pages, listed under Drive.
inline constexpr std::string_view history_page_name = "history";
inline constexpr std::string_view info_page_name = "info";

// The group of a page: the one its page model names, if any (the whole-
// surface scan and the capacity check are about the drive, not a rate),
// else by how the daemon says it is started (a kind this version does not
// know still lands where it belongs).
PageGroup page_group(std::string_view kind, PageTarget target) noexcept;
// Its heading, an N_() string: translate when shown.
const char* page_group_title(PageGroup group) noexcept;

// Where a page sorts in the list: its group first, then `added`, the order
// in which the window added it (the daemon's order for listed kinds).
struct PageOrder {
    PageGroup group;
    int added;
    friend auto operator<=>(const PageOrder&, const PageOrder&) = default;
};

} // namespace diskbench::client
