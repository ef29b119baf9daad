// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_description.hpp"

#include "pages/page_registry.hpp"

namespace diskbench::client {

BenchmarkDescription describe_benchmark(const std::string& kind, const SavedValueMap& parameters,
                                        const std::string& node, std::uint32_t logical_block_size)
{
    // Each kind says its own (pages/<kind>.cpp); a kind this app does not
    // know has nothing to say beyond the daemon's description.
    const PageModel* model = page_model(kind);
    if (!model || !model->describe)
        return {};
    return model->describe(parameters, node, logical_block_size);
}

} // namespace diskbench::client
