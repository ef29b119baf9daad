// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

namespace diskbench::client {

// What a benchmark kind is called and what it does, in a line: the app's
// page titles and the line under them. Both are N_() marked: translate
// when shown. For a kind this table lacks (a newer daemon's) clients show
// the daemon's own title and description.
struct KindTitle {
    std::string_view kind;
    const char* title;
    const char* summary;
};

// The kind's entry, or nullptr for a kind the table lacks.
const KindTitle* kind_title(std::string_view kind) noexcept;
// Its title, translated ("Random"); the kind itself when the table lacks it.
std::string kind_title_text(std::string_view kind);

} // namespace diskbench::client
