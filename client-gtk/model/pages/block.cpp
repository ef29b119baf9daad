// SPDX-License-Identifier: GPL-3.0-or-later
// Block (HDDTest's block size sweep): sequential reads from the start, a
// bar per block size, as MB/s or IOPS, and each size's latency distribution.
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
    const std::int64_t amount = integer_of(p, "amount_per_size", 100 << 20);
    d.what = printf_text(_("For each block size from %s to %s (doubling), reads %s sequentially from the "
                           "start of the device with queue depth %lld; one bar per size."),
                         bytes_text(low).c_str(), bytes_text(high).c_str(), bytes_text(amount).c_str(),
                         static_cast<long long>(depth));
    for (const std::int64_t block : doublings(low, high))
        d.fio_commands.push_back(fmt::format("{} --rw=read --bs={} --iodepth={} --size={}",
                                             fio_base(fmt::format("block-{}", fio_size(block)), node),
                                             fio_size(block), depth, fio_size(amount)));
    return d;
}

} // namespace

extern constinit const PageModel block_page {
    .kind = contract::kinds::block,
    .icon = "view-grid-symbolic",
    .views = block_size_views,
    .describe = describe,
};

} // namespace diskbench::client
