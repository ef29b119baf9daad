// SPDX-License-Identifier: GPL-3.0-or-later
// Device write: a sequential write and random 4 KiB writes at two queue
// depths on the raw device, a bar per test as MB/s, IOPS, p99 or p99.9.
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

constexpr std::int64_t GiB = 1LL << 30;

std::vector<PageView> views()
{
    using enum ChartStyle;
    using enum AxisScale;
    return { page_view(N_("MB/s"), chart_spec(Bar, Categories, Unit::Plain, Unit::MegabytesPerSecond), "throughput"),
             page_view(N_("IOPS"), chart_spec(Bar, Categories, Unit::Plain, Unit::Iops), "iops"),
             page_view(N_("p99"), chart_spec(Bar, Categories, Unit::Plain, Unit::Microseconds), "latency_p99"),
             page_view(N_("p99.9"), chart_spec(Bar, Categories, Unit::Plain, Unit::Microseconds), "latency_p99_9") };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical)
{
    BenchmarkDescription d;
    const std::string where = shell_quoted(node);
    const std::int64_t size = integer_of(p, "size", GiB);
    const std::int64_t block = block_or_logical(p, "block_size", 4 << 20, logical);
    const std::int64_t region = integer_of(p, "region_size", GiB);
    const double seconds = number_of(p, "duration_s", 5.0);
    d.what = printf_text(_("Writes %s sequentially from the start of the device in writes of %s, then random "
                           "4 KiB writes within the first %s at queue depth 1 and 32 for %.1f s each, every batch "
                           "timed with its fdatasync; MB/s, IOPS and latency per test. Keep data reads each "
                           "stretch first and writes the same bytes back. The fio commands below cannot keep "
                           "data: they erase it."),
                         bytes_text(size).c_str(), bytes_text(block).c_str(), bytes_text(region).c_str(), seconds);
    d.fio_commands.push_back(fmt::format("fio --name=seq-write --filename={} --rw=write --bs={} --iodepth=1 "
                                         "--size={} --direct=1 --ioengine=io_uring --end_fsync=1",
                                         where, fio_size(block), fio_size(size)));
    for (int depth : { 1, 32 })
        d.fio_commands.push_back(fmt::format("fio --name=rnd4k-q{} --filename={} --rw=randwrite --bs=4k "
                                             "--iodepth={} --size={} --runtime={:g} --time_based --direct=1 "
                                             "--ioengine=io_uring --fdatasync=32 --norandommap --randrepeat=0 "
                                             "--lat_percentiles=1",
                                             depth, where, depth, fio_size(region), seconds));
    return d;
}

} // namespace

extern constinit const PageModel device_write_page {
    .kind = contract::kinds::device_write,
    .icon = "document-save-symbolic",
    .target = PageTarget::DeviceWrite,
    .views = views,
    .describe = describe,
};

} // namespace diskbench::client
