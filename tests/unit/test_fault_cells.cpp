// SPDX-License-Identifier: GPL-3.0-or-later
// The surface scan's faults in the clients: read from a result
// (kinds/surface_faults), said in one line and a list, and drawn as the
// Surface page's error-scan grid (model/fault_cells) with its checks line.
// The same result the daemon writes is scanned from a real device with
// planted faults in tests/integration/test_surface_scan.py and drawn in
// tests/gui/test_gui_surface_scan.py.
#include "model/fault_cells.hpp"
#include "results/result_checks.hpp"
#include "kinds/surface_faults.hpp"

#include <catch2/catch.hpp>

using namespace diskbench::client;
using namespace diskbench::contract;

namespace {

constexpr double MiB = 1024.0 * 1024.0;

// A finished scan of a 16 MiB device in 1 MiB reads: 16 buckets, a bad
// 4 KiB range at 3 MiB + 512 and one across 9-10 MiB, a weak sector at
// 12 MiB and a one-off at 5 MiB.
SavedResult scan(bool bad = true)
{
    SavedResult result;
    result.kind = "surface";
    result.state = "finished";
    result.device_info = { { "size", std::int64_t { 16 << 20 } }, { "logical_block_size", std::int64_t { 512 } } };
    result.parameters = { { "block_size", std::int64_t { 1 << 20 } }, { "buckets", std::int64_t { 1000 } } };
    SavedSeries mean { "mean", "B", "MB/s", "line", {} };
    for (int i = 0; i < 16; ++i)
        mean.points.push_back({ i * MiB, 150.0 });
    SavedSeries ranges { "bad", "B", "B", "scatter", {} };
    SavedSeries errors { "bad_errno", "B", "", "scatter", {} };
    if (bad) {
        ranges.points = { { 3 * MiB + 512, 4096 }, { 9 * MiB + 1024, MiB } };
        errors.points = { { 3 * MiB + 512, 5 }, { 9 * MiB + 1024, 61 } };
    }
    SavedSeries slow { "slow", "B", "ms", "scatter", { { 5 * MiB, 40 }, { 12 * MiB, 90 } } };
    SavedSeries again { "slow_again", "B", "ms", "scatter", { { 5 * MiB, 0.4 }, { 12 * MiB, 88 } } };
    result.series = { mean, ranges, errors, slow, again };
    result.summary = { { "bad_ranges", std::int64_t { bad ? 2 : 0 } },
                       { "bad_bytes", std::int64_t { bad ? 4096 + (1 << 20) : 0 } },
                       { "slow_blocks", std::int64_t { 2 } },
                       { "slow_repeatable", std::int64_t { 1 } },
                       { "slow_threshold_ms", 10.0 } };
    if (bad)
        result.summary["first_bad_lba"] = std::int64_t { (3 << 20) / 512 + 1 };
    return result;
}

} // namespace

TEST_CASE("the faults of a scan: ranges with their errors, slow spots told apart", "[client-model]")
{
    const SurfaceFaults faults = surface_faults(scan());
    REQUIRE(faults.bad.size() == 2);
    CHECK(faults.bad[0].offset == (3u << 20) + 512);
    CHECK(faults.bad[0].length == 4096);
    CHECK(faults.bad[0].error == 5);
    CHECK(faults.bad[1].error == 61);
    REQUIRE(faults.slow.size() == 2);
    CHECK_FALSE(faults.slow[0].repeatable); // 0.4 ms when read again
    CHECK(faults.slow[1].repeatable);
    CHECK(faults.has_bad());

    const std::string line = surface_fault_line(faults);
    CHECK(line.starts_with("2 bad ranges, "));
    CHECK(line.find("unreadable, the first at 3") != std::string::npos);
    CHECK(line.find("2 slow spots, 1 of them slow every time") != std::string::npos);

    const std::string list = surface_fault_list(faults);
    // LBA 6145..6152: the 8 sectors from 3 MiB + 512.
    CHECK(list.find("bad: LBA 6145–6152 (4 KiB)") != std::string::npos);
    CHECK(list.find("slow: LBA 24576") != std::string::npos);
    CHECK(list.find("a weak sector") != std::string::npos);
    CHECK(list.find("a one-off") != std::string::npos);

    // Another kind has none.
    SavedResult seek = scan();
    seek.kind = "seek";
    CHECK(surface_faults(seek).bad.empty());
    CHECK_FALSE(surface_faults(seek).has_bad());
}

TEST_CASE("the error-scan grid: a cell per bucket, red over yellow over green", "[client-model]")
{
    const FaultCells grid = fault_cells(scan());
    REQUIRE(grid.cells.size() == 16);
    CHECK(grid.cells[3] == CellState::Bad);
    CHECK(grid.cells[9] == CellState::Bad);
    CHECK(grid.cells[10] == CellState::Bad); // the range runs into the next bucket
    CHECK(grid.cells[5] == CellState::Slow);
    CHECK(grid.cells[12] == CellState::Slow);
    CHECK(grid.cells[0] == CellState::Good);
    CHECK((grid.bad == 3 && grid.slow == 2 && grid.good == 11));

    // While it runs: the buckets not done yet are grey.
    SavedResult running = scan(false);
    running.series[0].points.resize(4);
    running.series[3].points.clear();
    running.series[4].points.clear();
    const FaultCells partial = fault_cells(running, 16 << 20);
    CHECK(partial.good == 4);
    CHECK(partial.cells[4] == CellState::Unread);
    // A bigger device than buckets: 1000 cells.
    SavedResult big = scan(false);
    big.device_info["size"] = std::int64_t { 4 } << 30;
    CHECK(fault_cells(big).cells.size() == 1000);
}

TEST_CASE("the checks card never passes a scan that found bad blocks", "[client-model]")
{
    const SavedResult sick = scan();
    const std::vector<std::string> warnings { "bad ranges: 2, 1 MiB unreadable, the first at block 6145: this drive "
                                              "is failing; copy what matters off it" };
    const ResultChecks checks = result_checks(sick.summary, warnings);
    REQUIRE_FALSE(checks.lines.empty());
    CHECK_FALSE(checks.lines.front().passed);
    CHECK(checks.shown_warnings == warnings);
    const ResultChecks healthy = result_checks(scan(false).summary, {});
    REQUIRE_FALSE(healthy.lines.empty());
    CHECK(healthy.lines.front().passed);
    CHECK(healthy.lines.front().text == "Surface: every block read, no bad blocks");
}
