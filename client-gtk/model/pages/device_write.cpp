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
    const std::int64_t sync_every = integer_of(p, "sync_every", 0);
    const bool destroy = text_of(p, "mode", "preserve") == "destroy";
    d.what = printf_text(_("Writes %s sequentially from the start of the device in writes of %s, then random "
                           "4 KiB writes within the first %s at queue depth 1 and 32 for %.1f s each; MB/s, IOPS "
                           "and latency per test."),
                         bytes_text(size).c_str(), bytes_text(block).c_str(), bytes_text(region).c_str(), seconds);
    d.what += " ";
    if (!destroy)
        d.what += _("Keep data reads each stretch first, writes the same bytes back and flushes each batch to the "
                    "medium, so the queue empties between batches. The fio commands below cannot keep data: they "
                    "erase it.");
    else if (sync_every > 0)
        d.what += printf_text(_("Each test flushes its writes to the medium after every %s written (as fio's "
                                "fsync=), inside its time."),
                              bytes_text(sync_every).c_str());
    else
        d.what += _("Each test keeps its queue full and ends with one flush to the medium, inside its time (as "
                    "fio's end_fsync=1).");
    d.fio_commands.push_back(fmt::format("fio --name=seq-write --filename={} --rw=write --bs={} --iodepth=1 "
                                         "--size={} --direct=1 --ioengine=io_uring {}",
                                         where, fio_size(block), fio_size(size), fio_sync_option(sync_every, block)));
    for (int depth : { 1, 32 })
        d.fio_commands.push_back(fmt::format("fio --name=rnd4k-q{} --filename={} --rw=randwrite --bs=4k "
                                             "--iodepth={} --size={} --runtime={:g} --time_based --direct=1 "
                                             "--ioengine=io_uring {} --norandommap --randrepeat=0 "
                                             "--lat_percentiles=1",
                                             depth, where, depth, fio_size(region), seconds,
                                             fio_sync_option(sync_every, 4096)));
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
