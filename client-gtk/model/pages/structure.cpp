// SPDX-License-Identifier: GPL-3.0-or-later
// Structure (HDDTest's directory tree): a bar per phase in seconds, drawn
// generically from the series its runs declare.
#include "page_model.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

BenchmarkDescription describe(const SavedValueMap& p, const std::string&, std::uint32_t)
{
    BenchmarkDescription d;
    d.what = printf_text(_("Builds a tree of %lld directories and %lld empty files in a new directory in the "
                           "folder, then deletes it; one bar for each phase in seconds, each timed to the end of "
                           "a syncfs (HDDTest’s Structure). The same seed builds the same tree everywhere. fio "
                           "and dd have no equivalent."),
                         static_cast<long long>(integer_of(p, "directories", 1000)),
                         static_cast<long long>(integer_of(p, "files", 1000)));
    return d;
}

} // namespace

extern constinit const PageModel structure_page {
    .kind = contract::kinds::structure,
    .icon = "folder-symbolic",
    .target = PageTarget::Directory,
    .describe = describe,
};

} // namespace diskbench::client
