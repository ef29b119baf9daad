// SPDX-License-Identifier: GPL-3.0-or-later
// QD sweep on the device: a line per thread count, IOPS or p99 against
// queue depth.
#include "page_model.hpp"

#include "page_views.hpp"
#include "qd_sweep_description.hpp"

#include "contract/benchmark_kinds.hpp"

namespace diskbench::client {

namespace {

BenchmarkDescription describe(const SavedValueMap& p, const std::string& node, std::uint32_t logical_block_size)
{
    return describe_qd_sweep(false, p, node, logical_block_size);
}

} // namespace

extern constinit const PageModel qd_sweep_page {
    .kind = contract::kinds::qd_sweep,
    .icon = "view-continuous-symbolic",
    .views = qd_sweep_views,
    .describe = describe,
};

} // namespace diskbench::client
