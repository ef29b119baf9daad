// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Random and Block benchmarks share their shape: one phase per block
// size, a bar per phase for MB/s and one for IOPS.

#include "../benchmark_support.hpp"

#include <functional>

namespace diskbench::engine::benchmarks {

struct SweepPhase {
    std::uint32_t block = 0;
    std::uint64_t reads = 0; // planned, for progress
    bool random = false;     // at random offsets (the cross-check's rotating-disk rule)
};

// Runs `make_source(phase)` for each phase in order, records the two bar
// series ("throughput" MB/s and "iops", x = block size in bytes) and the
// summary. Stops early when cancelled.
void run_sweep(BenchmarkContext& ctx, const std::vector<SweepPhase>& phases, unsigned queue_depth,
               const std::function<std::unique_ptr<RequestSource>(const SweepPhase&)>& make_source);

// The block sizes of a sweep from the `min_block`/`max_block` parameters.
std::vector<std::uint32_t> sweep_block_sizes(const BenchmarkContext& ctx);

} // namespace diskbench::engine::benchmarks
