// SPDX-License-Identifier: GPL-3.0-or-later
// Burn-in: the first pass's write and read speed against position, each
// with its slowest and fastest window as the band, and the blocks that came
// back wrong. Listed under Drive: it says whether the drive can be trusted.
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

std::vector<PageView> views()
{
    const ChartSpec speed = chart_spec(ChartStyle::Line, AxisScale::Linear, Unit::Bytes, Unit::MegabytesPerSecond);
    // Short names: the page's toolbar fits a 360-pixel window.
    return {
        page_view(N_("Write"), speed, "write1_mean", false, "write1_min", "write1_max"),
        page_view(N_("Read"), speed, "read1_mean", false, "read1_min", "read1_max"),
        // TRANSLATORS: a chart's name (keep it short): the bytes of each block that read back other than written
        page_view(N_("Wrong"), chart_spec(ChartStyle::Scatter, AxisScale::Linear, Unit::Bytes, Unit::Bytes),
                  "mismatch"),
    };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical)
{
    BenchmarkDescription d;
    const std::int64_t block = block_or_logical(p, "block_size", 1 << 20, logical);
    const std::int64_t depth = integer_of(p, "queue_depth", 32);
    const std::int64_t passes = integer_of(p, "cycles", 1);
    d.what = printf_text(_("Erases data: writes every block of the device in blocks of %s at queue depth %lld, each "
                           "512-byte sector marked with its place and a key drawn for this run, flushes, then reads "
                           "every block back and compares it, %lld times. A block that comes back other than "
                           "written is located to the sector (lost, or written somewhere else), unreadable blocks "
                           "are narrowed down to the logical block and slow ones read again."),
                         bytes_text(block).c_str(), static_cast<long long>(depth), static_cast<long long>(passes));
    // fio's own verify: a header in each block with its offset and a
    // checksum, written and then read back.
    d.fio_commands.push_back(fmt::format("fio --name=burn-in --filename={} --rw=write --bs={} --iodepth={} "
                                         "--size=100% --direct=1 --ioengine=io_uring --end_fsync=1 "
                                         "--verify=crc32c --do_verify=1 --verify_fatal=0 --loops={}",
                                         shell_quoted(node), fio_size(block), depth, passes));
    return d;
}

} // namespace

extern constinit const PageModel burn_in_page {
    .kind = contract::kinds::burn_in,
    .icon = "emblem-ok-symbolic",
    .target = PageTarget::DeviceWrite,
    .views = views,
    .describe = describe,
    .group = PageGroup::Drive,
    .x_domain = whole_device,
    .expected_points = "buckets",
};

} // namespace diskbench::client
