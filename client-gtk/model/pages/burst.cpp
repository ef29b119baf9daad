// SPDX-License-Identifier: GPL-3.0-or-later
// Burst (HD Tune's burst rate): MB/s over time while one small region is
// read again and again, so the drive's cache answers; the headline puts
// the link's limit beside it.
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
    return { page_view(N_("MB/s"), chart_spec(ChartStyle::Line, AxisScale::Linear, Unit::Seconds,
                                              Unit::MegabytesPerSecond), "throughput") };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical_block_size)
{
    BenchmarkDescription d;
    const std::int64_t region = integer_of(p, "region_size", 1 << 20);
    const std::int64_t block = block_or_logical(p, "block_size", 128 << 10, logical_block_size);
    const std::int64_t depth = integer_of(p, "queue_depth", 4);
    const double seconds = number_of(p, "duration_s", 2);
    const double warmup = number_of(p, "warmup_s", 0.2);
    d.what = printf_text(_("Reads the first %s of the device again and again in reads of %s with queue depth %lld, "
                           "for %.1f s after %.1f s that fill the drive's cache, and plots MB/s over time: the "
                           "interface's peak (HD Tune's burst rate), which the link's limit caps."),
                         bytes_text(region).c_str(), bytes_text(block).c_str(), static_cast<long long>(depth), seconds,
                         warmup);
    d.fio_commands.push_back(fmt::format("{} --rw=read --bs={} --iodepth={} --size={} --ramp_time={:g} --runtime={:g} "
                                         "--time_based",
                                         fio_base("burst", node), fio_size(block), depth, fio_size(region), warmup,
                                         seconds));
    return d;
}

} // namespace

extern constinit const PageModel burst_page {
    .kind = contract::kinds::burst,
    .icon = "network-transmit-receive-symbolic",
    .views = views,
    .describe = describe,
};

} // namespace diskbench::client
