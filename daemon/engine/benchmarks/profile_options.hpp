// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// CrystalDiskMark's options that profile and file-profile share: the test
// set (preset) and the rest between tests (interval).

#include "../benchmark_support.hpp"

namespace diskbench::engine::benchmarks {

// `preset`: which tests run when `tests` is empty (profile_tests.hpp's presets).
ParamSpec preset_param();
// `interval_s`: seconds of rest between two tests, so that a drive's write
// cache (an SSD's SLC cache) empties and it cools down before the next
// test, as CrystalDiskMark's "Interval" setting. 0 to 600 s.
ParamSpec interval_param(double default_seconds);
// Rests `seconds` (the caller calls it between tests, never before the
// first); false when cancelled meanwhile. Looks at the token every 50 ms,
// so Cancel stops a 10-minute rest at once.
bool rest_between_tests(const CancelToken& cancel, double seconds);

} // namespace diskbench::engine::benchmarks
