// SPDX-License-Identifier: GPL-3.0-or-later
// R/W file (HDDTest's file read/write): MB/s along the file, the write and
// the read each a named line.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

constexpr std::int64_t MiB = 1 << 20;
constexpr std::int64_t GiB = 1LL << 30;

std::vector<PageView> views()
{
    return { by_name(page_view(N_("MB/s"), chart_spec(ChartStyle::Line, AxisScale::Linear, Unit::Bytes,
                                                      Unit::MegabytesPerSecond), "", true)) };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& folder, std::uint32_t)
{
    BenchmarkDescription d;
    const std::int64_t size = integer_of(p, "size", GiB);
    const std::int64_t block = integer_of(p, "block_size", MiB);
    d.what = printf_text(_("Writes %s of random data into a new file in the folder in writes of %s, the final "
                           "fdatasync inside the timing, then reads the file back; MB/s along the file for both. "
                           "The file has no name and is gone when the run ends. Without a size, 90 %% of the "
                           "free space at most."),
                         bytes_text(size).c_str(), bytes_text(block).c_str());
    for (const std::string_view rw : { "write", "read" })
        d.fio_commands.push_back(fmt::format("fio --name=file-rw --directory={} --rw={} --bs={} --size={} "
                                             "--direct=1 --ioengine=io_uring{} --write_bw_log=file-{} "
                                             "--log_avg_msec=100",
                                             shell_quoted(folder), rw, fio_size(block), fio_size(size),
                                             rw == "write" ? " --end_fsync=1" : "", rw));
    return d;
}

} // namespace

extern constinit const PageModel file_rw_page {
    .kind = contract::kinds::file_rw,
    .icon = "document-edit-symbolic",
    .target = PageTarget::Directory,
    .views = views,
    .describe = describe,
};

} // namespace diskbench::client
