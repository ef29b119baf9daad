// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How much of a file the page cache holds (mincore over a read-only
// mapping: asks, reads nothing). What a loop device without direct I/O
// reads from memory instead of its disk: the disk's own counters cannot
// tell, since the disk under the backing file is shared with everyone else.

#include <optional>

namespace diskbench::engine::storage {

// The share (0..1) of the file open at `fd` that is in the page cache;
// nullopt when it cannot be told (not a regular file, empty, mmap refused).
std::optional<double> cached_share(int fd);

} // namespace diskbench::engine::storage
