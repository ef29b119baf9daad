// SPDX-License-Identifier: GPL-3.0-or-later
// Small files (HDDTest's small files): four phases in seconds, drawn
// generically from the series its runs declare.
#include "page_model.hpp"

#include "command_lines.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

BenchmarkDescription describe(const SavedValueMap& p, const std::string&, std::uint32_t)
{
    BenchmarkDescription d;
    d.what = printf_text(_("Builds a tree of %lld directories, writes %lld files of %s to %s into it, reads them "
                           "back in random order after dropping their cached pages, and deletes the tree; four "
                           "bars in seconds, each phase timed to the end of a syncfs (HDDTest’s Small files). "
                           "fio and dd have no equivalent."),
                         static_cast<long long>(integer_of(p, "directories", 1000)),
                         static_cast<long long>(integer_of(p, "files", 1000)),
                         bytes_text(integer_of(p, "min_file_size", 1024)).c_str(),
                         bytes_text(integer_of(p, "max_file_size", 10 * 1024)).c_str());
    return d;
}

} // namespace

extern constinit const PageModel small_files_page {
    .kind = contract::kinds::small_files,
    .icon = "text-x-generic-symbolic",
    .target = PageTarget::Directory,
    .describe = describe,
};

} // namespace diskbench::client
