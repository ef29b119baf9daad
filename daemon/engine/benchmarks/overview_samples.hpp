// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace diskbench::engine::benchmarks {

// Where the overview reads its transfer-rate samples, as GNOME Disks does:
// `count` samples of `sample` bytes spread evenly over a span of `span`
// bytes, the first at 0 and the last ending at the span's end, each start
// aligned down to `align` (a power of two, at most `sample`). Ascending;
// empty when `sample` is 0 or does not fit the span. Fewer than `count`
// when the span holds fewer distinct aligned starts.
std::vector<std::uint64_t> sample_offsets(std::uint64_t span, std::uint64_t sample, std::uint64_t count,
                                          std::uint32_t align);

} // namespace diskbench::engine::benchmarks
