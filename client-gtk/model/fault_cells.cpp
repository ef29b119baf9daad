// SPDX-License-Identifier: GPL-3.0-or-later
#include "fault_cells.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/bucket_layout.hpp"
#include "kinds/surface_faults.hpp"
#include "types/saved_values.hpp"

#include <algorithm>

namespace diskbench::client {

namespace {

// The bucket of the byte at OFFSET (the last block for an offset past it).
std::size_t bucket_of_byte(const contract::BucketLayout& layout, std::uint64_t block, std::uint64_t offset)
{
    return static_cast<std::size_t>(layout.bucket_of(std::min(offset / block, layout.blocks() - 1)));
}

} // namespace

FaultCells fault_cells(const SavedResult& result, std::uint64_t device_size)
{
    FaultCells grid;
    // The grid of the Surface scan's buckets: no other kind has them.
    if (result.kind != contract::kinds::surface)
        return grid;
    if (device_size == 0)
        device_size = static_cast<std::uint64_t>(std::max(0.0, number_of(result.device_info, "size", 0)));
    // block_size 0 means the logical block; the daemon's default is 1 MiB.
    std::uint64_t block = static_cast<std::uint64_t>(std::max(0.0, number_of(result.parameters, "block_size", 1 << 20)));
    if (block == 0)
        block = static_cast<std::uint64_t>(std::max(512.0, number_of(result.device_info, "logical_block_size", 512)));
    const auto wanted = static_cast<std::uint64_t>(std::max(1.0, number_of(result.parameters, "buckets", 1000)));
    if (device_size == 0)
        return grid;
    const contract::BucketLayout layout((device_size + block - 1) / block, wanted);
    grid.cells.assign(static_cast<std::size_t>(layout.count()), CellState::Unread);

    // A bucket's point is added when its last read completed.
    for (const SavedSeries& series : result.series)
        if (series.name == "mean")
            for (const SeriesPoint& point : series.points)
                if (point.x >= 0)
                    grid.cells[bucket_of_byte(layout, block, static_cast<std::uint64_t>(point.x))] = CellState::Good;
    const SurfaceFaults faults = surface_faults(result);
    for (const SlowSpotEntry& spot : faults.slow)
        grid.cells[bucket_of_byte(layout, block, spot.offset)] = CellState::Slow;
    for (const BadRangeEntry& range : faults.bad) {
        const std::size_t first = bucket_of_byte(layout, block, range.offset);
        const std::size_t last = bucket_of_byte(layout, block, range.offset + std::max<std::uint64_t>(range.length, 1) - 1);
        for (std::size_t i = first; i <= last; ++i)
            grid.cells[i] = CellState::Bad;
    }
    for (CellState state : grid.cells) {
        grid.good += state == CellState::Good;
        grid.slow += state == CellState::Slow;
        grid.bad += state == CellState::Bad;
    }
    return grid;
}

} // namespace diskbench::client
