// SPDX-License-Identifier: GPL-3.0-or-later
// Verify capacity (f3probe's check for fake drives): the share of each
// stretch that held what was written. Listed under Drive: it says what the
// drive is, not how fast.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::vector<PageView> views()
{
    return { page_view(N_("Intact (%)"), chart_spec(ChartStyle::Line, AxisScale::Linear, Unit::Bytes, Unit::Plain),
                       "intact") };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string&, std::uint32_t logical)
{
    BenchmarkDescription d;
    const std::int64_t block = block_or_logical(p, "block_size", 64 << 10, logical);
    const std::int64_t probes = integer_of(p, "probes", 0);
    const std::string how_many = probes > 0
        ? printf_text(g_dngettext(GETTEXT_PACKAGE, "%lld probe block", "%lld probe blocks", static_cast<gulong>(probes)),
                      static_cast<long long>(probes))
        : std::string(_("probe blocks"));
    // No fio command: fio has no such check. f3probe (from f3) is the
    // tool users know for it.
    d.what = printf_text(_("Erases data: checks whether the device holds as much as it claims, as f3probe "
                           "--destructive does for fake USB sticks and memory cards. Writes %s of %s spread over "
                           "the whole claimed size, and the start of the device whole, each sector marked with "
                           "its place and a key drawn for this run; reads them all back and reports the real "
                           "size: to the sector when writes past it land at the start again, within one block "
                           "when they are lost."),
                         how_many.c_str(), bytes_text(block).c_str());
    return d;
}

} // namespace

extern constinit const PageModel verify_capacity_page {
    .kind = contract::kinds::verify_capacity,
    .icon = "drive-removable-media-symbolic",
    .target = PageTarget::DeviceWrite,
    .views = views,
    .describe = describe,
    .group = PageGroup::Drive,
};

} // namespace diskbench::client
