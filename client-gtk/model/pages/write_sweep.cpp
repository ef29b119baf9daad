// SPDX-License-Identifier: GPL-3.0-or-later
// Write sweep in a folder (the dd block-size study): the median MB/s per
// block size with the slowest and fastest repetition around it.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::vector<PageView> views()
{
    return { write_sweep_view() };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& folder, std::uint32_t)
{
    BenchmarkDescription d;
    d.what = printf_text(_("For each block size from %s to %s (doubling), writes %s into a new file in the "
                           "folder %lld times, each write timed with its fdatasync; mean, median, slowest and "
                           "fastest MB/s per size, as in the dd study."),
                         bytes_text(integer_of(p, "min_block", 512)).c_str(),
                         bytes_text(integer_of(p, "max_block", 16 << 20)).c_str(),
                         bytes_text(integer_of(p, "amount_per_size", 64 << 20)).c_str(),
                         static_cast<long long>(integer_of(p, "repetitions", 9)));
    d.fio_commands = dd_sweep(p, shell_quoted(folder + "/ddtest"), "; rm -f " + shell_quoted(folder + "/ddtest"));
    return d;
}

} // namespace

extern constinit const PageModel write_sweep_page {
    .kind = contract::kinds::write_sweep,
    .icon = "view-grid-symbolic",
    .target = PageTarget::Directory,
    .views = views,
    .describe = describe,
};

} // namespace diskbench::client
