// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../benchmark_pages.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace diskbench::client {

// The building blocks of the kinds' views (pages/<kind>.cpp), and the
// views several kinds share.

ChartSpec chart_spec(ChartStyle style, AxisScale scale, Unit x, Unit y);
// A view of the series named SERIES (every series starting with it when
// PREFIX); BAND_MIN and BAND_MAX become the band around it.
PageView page_view(const char* label, ChartSpec chart, std::string series, bool prefix = false,
                   std::string band_min = {}, std::string band_max = {});
// Every shown series labelled by its name ("write", "read").
PageView by_name(PageView view);
// The read and write bars of a run that draws both (not its latency distributions).
PageView read_and_write(PageView view);

// The latency distributions a run declares (contract::is_latency_cdf).
PageView latency_cdf_view();
// Each test's p99 and p99.9 latency side by side.
PageView tail_latency_view();
// A bar per block size, as MB/s or IOPS, and each size's latency
// distribution (Random, Block).
std::vector<PageView> block_size_views();
// A line per thread count, IOPS or p99 against queue depth (both sweeps).
std::vector<PageView> qd_sweep_views();
// The graph of both write sweeps (folder and raw device): per block size
// the median of the repetitions (the dd study's figure, robust to one
// stalled repetition), with the slowest and fastest repetition as the band
// around it; the mean ("throughput") and the single repetitions are not drawn.
PageView write_sweep_view();

// The x domain of a kind whose reads can land anywhere (Seek's jumps, the
// Surface scan): the whole device, when its size is known.
std::optional<std::pair<double, double>> whole_device(const SavedValueMap& parameters, std::uint64_t device_size);

} // namespace diskbench::client
