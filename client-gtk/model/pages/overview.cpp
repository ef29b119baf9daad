// SPDX-License-Identifier: GPL-3.0-or-later
// Overview (GNOME Disks' benchmark): the read rate along the device with
// the opt-in write rate beside it, and the access times at their places;
// first in the page list, the one click for the three numbers.
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
    using enum ChartStyle;
    using enum AxisScale;
    // The write rate (the opt-in `write`) beside the read rate, each named.
    return { read_and_write(by_name(page_view(N_("MB/s"), chart_spec(Line, Linear, Unit::Bytes,
                                                                     Unit::MegabytesPerSecond), "read"))),
             page_view(N_("Access time"), chart_spec(Scatter, Linear, Unit::Bytes, Unit::Microseconds), "access") };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical_block_size)
{
    BenchmarkDescription d;
    const std::int64_t access_block = block_or_logical(p, "access_block_size", 0, logical_block_size);
    const std::int64_t reads = integer_of(p, "access_reads", 1000);
    d.what = printf_text(_("Reads %s at each of %lld places spread evenly from the start to the end of the device, "
                           "one read of %s at a time, and plots the read rate at each place, as GNOME Disks "
                           "does; then reads %lld single blocks of %s at random places for the access time, "
                           "each drawn at its place. The same seed reads the same places on every machine."),
                         bytes_text(integer_of(p, "sample_size", 10 << 20)).c_str(),
                         static_cast<long long>(integer_of(p, "samples", 100)),
                         bytes_text(integer_of(p, "block_size", 1 << 20)).c_str(), static_cast<long long>(reads),
                         bytes_text(access_block).c_str());
    if (boolean_of(p, "write", false))
        d.what += " "
            + std::string(_("With the write rate, each sample is also read again and written back unchanged, "
                            "then synced, and the write with its sync is timed, as GNOME Disks does: the data "
                            "stays, but the device must be unused and writing needs the administrator's "
                            "consent. fio has no write that keeps the data, so no command is given for it."));
    // The samples' places depend on the device's size, which fio
    // cannot be told in one command; the access time it can.
    if (reads > 0)
        d.fio_commands.push_back(fmt::format("{} --rw=randread --bs={} --iodepth=1 --number_ios={} --norandommap "
                                             "--randrepeat=0 --lat_percentiles=1",
                                             fio_base("access-time", node), fio_size(access_block), reads));
    return d;
}

} // namespace

extern constinit const PageModel overview_page {
    .kind = contract::kinds::overview,
    .icon = "power-profile-balanced-symbolic",
    .views = views,
    .describe = describe,
    .group = PageGroup::Overview,
};

} // namespace diskbench::client
