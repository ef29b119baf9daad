// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the two queue-depth sweeps share (qd-sweep on a device, file-qd-sweep
// on a test file in a folder): tiobench's matrix of queue depths 1, 2, 4 ..
// max_queue_depth on 1, 2, 4 .. max_threads threads, every cell a timed run
// of reads or writes, and the series of IOPS and p99 latency against queue
// depth, one pair per thread count. How a cell is measured is the caller's.

#include "../benchmark_support.hpp"
#include "profile_tests.hpp"
#include "timed_run.hpp"

#include <functional>

namespace diskbench::engine::benchmarks {

// `block_size` (on a device 0 is its logical block), `max_queue_depth`,
// `max_threads`, `pattern`, and `writes`, the caller's (what writing means
// where the sweep runs; its help a literal of the caller's bool_param()
// call, which po/meson.build extracts).
std::vector<ParamSpec> qd_sweep_params(ParamSpec writes, bool on_device);

struct QdGrid {
    std::uint32_t block = 0;
    bool random = true;
    bool writes = false;
    std::vector<std::uint32_t> depths;        // 1, 2, 4 .. max_queue_depth
    std::vector<std::uint32_t> thread_counts; // 1, 2, 4 .. max_threads
    // Each cell's copies of what it writes back count against
    // max_preserved_bytes (a device's writes in preserve mode).
    bool preserve = false;

    [[nodiscard]] bool runs(std::uint32_t threads, std::uint32_t depth) const noexcept;
};

// The grid the parameters ask for, checked (powers of two, the smallest
// cell within the limits), with a note of the cells left out. `block` is
// the checked block size.
QdGrid plan_qd_grid(const ParameterSet& params, Recorder& recorder, std::uint32_t block, bool preserve);

// One cell to measure: its test (pattern, block, depth, threads), a seed of
// its own, and its share of the progress bar.
struct QdCell {
    ProfileTest test;
    std::uint64_t seed = 0;
    double progress_before = 0;
    double progress_share = 0;
};

struct QdCellFigures {
    double iops = 0;
    double p99_us = 0;
    bool cancelled = false;
};

using QdCellRun = std::function<QdCellFigures(const QdCell& cell)>;

// A cell as a timed run of reads over [0, region): its test, seed and
// share of the bar, and the parameters' duration_s, warmup_s and max_bytes.
TimedRunPlan qd_cell_plan(const ParameterSet& params, const QdCell& cell, std::uint64_t region);

// The figures a cell's run gives the grid.
QdCellFigures qd_cell_figures(const IoRunStats& stats);

// Runs every cell of `grid` in turn through `measure`, drawing the series
// "iops-tN" and "p99-tN" and recording pattern, direction, cells and the
// best cell in `result`. `progress_before`/`progress_share`: the part of
// the bar the grid covers (a folder's fill comes first).
void run_qd_grid(Recorder& recorder, Result& result, const QdGrid& grid, std::uint64_t seed, const QdCellRun& measure,
                 double progress_before = 0, double progress_share = 1);

} // namespace diskbench::engine::benchmarks
