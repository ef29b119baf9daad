// SPDX-License-Identifier: GPL-3.0-or-later
// Cont (HDDTest's continuous read): MB/s along the stretch it read, which
// is the graph's x axis.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <fmt/format.h>
#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

namespace {

std::vector<PageView> views()
{
    return { page_view(N_("MB/s"), chart_spec(ChartStyle::Line, AxisScale::Linear, Unit::Bytes,
                                              Unit::MegabytesPerSecond), "throughput") };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t)
{
    BenchmarkDescription d;
    const std::int64_t depth = integer_of(p, "queue_depth", 1);
    d.what = printf_text(_("Reads %s from offset %s in blocks of %s with queue depth %lld and plots MB/s "
                           "along the way (sizes larger than the device are scaled down to fit)."),
                         bytes_text(integer_of(p, "size", 4LL << 30)).c_str(),
                         bytes_text(integer_of(p, "offset")).c_str(),
                         bytes_text(integer_of(p, "block_size", 4 << 20)).c_str(), static_cast<long long>(depth));
    d.fio_commands.push_back(fmt::format("{} --rw=read --bs={} --iodepth={} --offset={} --size={} "
                                         "--write_bw_log=cont --log_avg_msec=100",
                                         fio_base("cont", node), fio_size(integer_of(p, "block_size", 4 << 20)),
                                         depth, integer_of(p, "offset"), fio_size(integer_of(p, "size", 4LL << 30))));
    return d;
}

// The stretch the run reads (offset to offset + size, within the device).
std::optional<std::pair<double, double>> x_domain(const SavedValueMap& parameters, std::uint64_t device_size)
{
    const std::int64_t offset = integer_of(parameters, "offset", 0);
    std::int64_t end = offset + integer_of(parameters, "size", 0);
    if (device_size > 0)
        end = std::min<std::int64_t>(end, static_cast<std::int64_t>(device_size));
    if (end <= offset)
        return std::nullopt;
    return std::pair { static_cast<double>(offset), static_cast<double>(end) };
}

} // namespace

extern constinit const PageModel sequential_page {
    .kind = contract::kinds::sequential,
    .icon = "media-playlist-consecutive-symbolic",
    .views = views,
    .describe = describe,
    .x_domain = x_domain,
};

} // namespace diskbench::client
