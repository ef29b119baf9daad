// SPDX-License-Identifier: GPL-3.0-or-later
// Surface (the whole-disk read map): each stretch's mean read rate with
// its slowest and fastest read as the band, over the whole device, and
// the map of what could not be read above it. Listed under Drive: it says
// what state the drive is in more than how fast it is.
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
    return { page_view(N_("MB/s"), chart_spec(ChartStyle::Line, AxisScale::Linear, Unit::Bytes,
                                              Unit::MegabytesPerSecond), "mean", false, "min", "max") };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t)
{
    BenchmarkDescription d;
    d.what = printf_text(_("Reads the whole device once, front to back, in blocks of %s at queue depth 1, "
                           "timing every read, and draws %lld stretches with their mean, slowest and fastest "
                           "read. Takes as long as reading the whole disk."),
                         bytes_text(integer_of(p, "block_size", 1 << 20)).c_str(),
                         static_cast<long long>(integer_of(p, "buckets", 1000)));
    d.fio_commands.push_back(fmt::format("{} --rw=read --bs={} --iodepth=1 --size=100% --write_bw_log=surface "
                                         "--log_avg_msec=1000",
                                         fio_base("surface", node), fio_size(integer_of(p, "block_size", 1 << 20))));
    return d;
}

} // namespace

extern constinit const PageModel surface_page {
    .kind = contract::kinds::surface,
    .icon = "drive-harddisk-symbolic",
    .views = views,
    .describe = describe,
    .group = PageGroup::Drive,
    .x_domain = whole_device,
    .expected_points = "buckets",
    .extra = PageExtra::FaultMap,
};

} // namespace diskbench::client
