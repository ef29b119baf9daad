// SPDX-License-Identifier: GPL-3.0-or-later
// Sustained write: MB/s over time while writing the device round and
// round (where a write cache fills up), drawn generically from the series
// its runs declare.
#include "page_model.hpp"

#include "command_lines.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical)
{
    BenchmarkDescription d;
    const std::int64_t size = integer_of(p, "size", 0);
    const std::int64_t block = block_or_logical(p, "block_size", 4 << 20, logical);
    const double seconds = number_of(p, "duration_s", 0);
    const double window = number_of(p, "window_s", 1.0);
    const std::string over = size > 0 ? bytes_text(size) : std::string(_("the whole device"));
    d.what = seconds > 0
        ? printf_text(_("Erases data: writes over %s from the start of the device, round and round for %.0f s, in "
                        "writes of %s at queue depth %lld, and plots MB/s per %.2f s; reports the burst speed, "
                        "where it fell (a cache filling up) and the steady speed."),
                      over.c_str(), seconds, bytes_text(block).c_str(),
                      static_cast<long long>(integer_of(p, "queue_depth", 1)), window)
        : printf_text(_("Erases data: writes over %s from the start of the device once, in writes of %s at "
                        "queue depth %lld, and plots MB/s per %.2f s; reports the burst speed, where it fell (a "
                        "cache filling up) and the steady speed."),
                      over.c_str(), bytes_text(block).c_str(), static_cast<long long>(integer_of(p, "queue_depth", 1)),
                      window);
    const std::string sync = fio_sync_option(integer_of(p, "sync_every", 0), block);
    d.fio_commands.push_back(fmt::format("fio --name=sustained --filename={} --rw=write --bs={} --iodepth={} "
                                         "--size={}{} --direct=1 --ioengine=io_uring {} "
                                         "--write_bw_log=sustained --log_avg_msec={:.0f}",
                                         shell_quoted(node), fio_size(block), integer_of(p, "queue_depth", 1),
                                         size > 0 ? fio_size(size) : "100%",
                                         seconds > 0 ? fmt::format(" --runtime={:g} --time_based", seconds) : "",
                                         sync, window * 1000));
    return d;
}

} // namespace

extern constinit const PageModel sustained_write_page {
    .kind = contract::kinds::sustained_write,
    .icon = "media-playlist-consecutive-symbolic",
    .target = PageTarget::DeviceWrite,
    .describe = describe,
};

} // namespace diskbench::client
