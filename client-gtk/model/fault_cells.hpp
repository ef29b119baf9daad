// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Surface page's error-scan grid, as HD Tune draws it: one cell per
// bucket of the scan, green when it was read, yellow when it holds a slow
// spot, red when it holds a bad block, grey while not read yet. Built from
// the result (its parameters, the finished buckets of its "mean" series and
// the faults of kinds/surface_faults.hpp), so a reopened result shows the
// same grid as the run did.

#include "types/result_types.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace diskbench::client {

enum class CellState { Unread, Good, Slow, Bad };

struct FaultCells {
    std::vector<CellState> cells;
    std::size_t good = 0, slow = 0, bad = 0;
};

// DEVICE_SIZE: the device's size in bytes (the result's device_info "size"
// when 0). No cells for another kind or an unknown size.
FaultCells fault_cells(const SavedResult& result, std::uint64_t device_size = 0);

} // namespace diskbench::client
