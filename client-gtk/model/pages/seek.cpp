// SPDX-License-Identifier: GPL-3.0-or-later
// Seek (HDDTest's access time): each read's latency at the distance it
// jumped, over the whole device, and the latency distribution.
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
    return { page_view(N_("Latency"), chart_spec(ChartStyle::Scatter, AxisScale::Linear, Unit::Bytes,
                                                 Unit::Microseconds), "latency"),
             latency_cdf_view() };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical_block_size)
{
    BenchmarkDescription d;
    const std::int64_t block = block_or_logical(p, "block_size", 0, logical_block_size);
    d.what = printf_text(_("Reads %lld blocks of %s, one at a time (queue depth 1), each at a random place "
                           "over the whole device, and plots how far each read jumped against how long it took. "
                           "The same seed reads the same places on every machine."),
                         static_cast<long long>(integer_of(p, "count", 1000)), bytes_text(block).c_str());
    d.fio_commands.push_back(fmt::format("{} --rw=randread --bs={} --iodepth=1 --number_ios={} --norandommap "
                                         "--randrepeat=0 --lat_percentiles=1",
                                         fio_base("seek", node), fio_size(block), integer_of(p, "count", 1000)));
    return d;
}

} // namespace

extern constinit const PageModel seek_page {
    .kind = contract::kinds::seek,
    .icon = "find-location-symbolic",
    .views = views,
    .describe = describe,
    .x_domain = whole_device,
    .expected_points = "count",
};

} // namespace diskbench::client
