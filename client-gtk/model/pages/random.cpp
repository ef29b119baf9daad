// SPDX-License-Identifier: GPL-3.0-or-later
// Random (HDDTest's random reads): a bar per block size, as MB/s or IOPS,
// and the latency distribution of each size.
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

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical_block_size)
{
    BenchmarkDescription d;
    const std::int64_t depth = integer_of(p, "queue_depth", 1);
    const std::int64_t low = block_or_logical(p, "min_block", 0, logical_block_size);
    const std::int64_t high = std::max(low, integer_of(p, "max_block", 1 << 20));
    d.what = printf_text(_("For each block size from %s to %s (doubling), reads %lld blocks at random "
                           "places (%s) with queue depth %lld; one bar per size."),
                         bytes_text(low).c_str(), bytes_text(high).c_str(),
                         static_cast<long long>(integer_of(p, "count_per_size", 100)),
                         boolean_of(p, "aligned", true) ? _("aligned to the block size")
                                                        : _("aligned only to the logical block"),
                         static_cast<long long>(depth));
    for (const std::int64_t block : doublings(low, high))
        d.fio_commands.push_back(fmt::format("{} --rw=randread --bs={} --iodepth={} --number_ios={} "
                                             "--norandommap --randrepeat=0",
                                             fio_base(fmt::format("random-{}", fio_size(block)), node),
                                             fio_size(block), depth, integer_of(p, "count_per_size", 100)));
    return d;
}

} // namespace

extern constinit const PageModel random_page {
    .kind = contract::kinds::random,
    .icon = "media-playlist-shuffle-symbolic",
    .views = block_size_views,
    .describe = describe,
};

} // namespace diskbench::client
