// SPDX-License-Identifier: GPL-3.0-or-later
// QD sweep in a folder: the device's sweep on a test file, drawn and said
// the same way (its best cell leads, as the device's does).
#include "page_model.hpp"

#include "page_views.hpp"
#include "qd_sweep_description.hpp"

#include "contract/benchmark_kinds.hpp"

namespace diskbench::client {

namespace {

BenchmarkDescription describe(const SavedValueMap& p, const std::string& folder, std::uint32_t logical_block_size)
{
    return describe_qd_sweep(true, p, folder, logical_block_size);
}

} // namespace

extern constinit const PageModel file_qd_sweep_page {
    .kind = contract::kinds::file_qd_sweep,
    .icon = "view-continuous-symbolic",
    .target = PageTarget::Directory,
    .views = qd_sweep_views,
    .describe = describe,
    .device_summary = true,
};

} // namespace diskbench::client
