// SPDX-License-Identifier: GPL-3.0-or-later
// Device write sweep (the dd block-size study on the raw device): drawn as
// the folder's write sweep is.
#include "page_model.hpp"

#include "command_lines.hpp"
#include "page_views.hpp"

#include "contract/benchmark_kinds.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::vector<PageView> views()
{
    return { write_sweep_view() };
}

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t)
{
    BenchmarkDescription d;
    d.what = printf_text(_("Erases data: for each block size from %s to %s (doubling), writes %s from the start "
                           "of the device %lld times, each write timed with its fdatasync; mean, median, slowest "
                           "and fastest MB/s per size, as in the dd study."),
                         bytes_text(integer_of(p, "min_block", 512)).c_str(),
                         bytes_text(integer_of(p, "max_block", 16 << 20)).c_str(),
                         bytes_text(integer_of(p, "amount_per_size", 64 << 20)).c_str(),
                         static_cast<long long>(integer_of(p, "repetitions", 9)));
    d.fio_commands = dd_sweep(p, shell_quoted(node), "");
    return d;
}

} // namespace

extern constinit const PageModel device_write_sweep_page {
    .kind = contract::kinds::device_write_sweep,
    .icon = "view-grid-symbolic",
    .target = PageTarget::DeviceWrite,
    .views = views,
    .describe = describe,
};

} // namespace diskbench::client
