// SPDX-License-Identifier: GPL-3.0-or-later
// Mixed load (DiskThrasher): reads and writes over time, drawn generically
// from the series its runs declare.
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
    d.what = printf_text(_("DiskThrasher: %lld threads each write a file of %s (not timed), then all sort their "
                           "file in place at once, in 1 MiB chunks: about 1.7 reads per write at semi-random "
                           "places. Reads and writes are timed apart; MB/s over time for each. fio and dd have no "
                           "equivalent."),
                         static_cast<long long>(integer_of(p, "threads", 4)),
                         bytes_text(integer_of(p, "file_size", 256 << 20)).c_str());
    return d;
}

} // namespace

extern constinit const PageModel mixed_load_page {
    .kind = contract::kinds::mixed_load,
    .icon = "media-playlist-shuffle-symbolic",
    .target = PageTarget::Directory,
    .describe = describe,
};

} // namespace diskbench::client
