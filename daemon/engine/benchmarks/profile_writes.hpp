// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The device Profiles' write column (profile with write=true), as
// CrystalDiskMark's table has it: after each test's reads the same test as
// writes, and in destroy mode the mixed test at the end ([Mix], 70 % reads
// by default). Destroy mode writes every test with new data, the queue
// full and one flush at the end of each (test_writes.hpp); preserve mode
// writes the sequential tests only, batch by batch, each range read first
// and put back, and the result names them as preserve-mode figures (mode,
// sync_rule "batch", written_tests). A random test in preserve mode would
// spend its time reading back what it writes: it is left out with a note.

#include "../benchmark_support.hpp"
#include "device_write_support.hpp"
#include "profile_tests.hpp"
#include "timed_run.hpp"

#include <optional>
#include <string>

namespace diskbench::engine::benchmarks {

// profile's `write`, `mix`, `mix_read_percent` and `select` (beside write_mode_params()).
std::vector<ParamSpec> profile_write_params();

class ProfileWriteColumn {
public:
    // Checks the write parameters (mode, confirm, mix) before any I/O, and
    // records mode, sync_rule and written_range_bytes; inactive when
    // write=false.
    ProfileWriteColumn(BenchmarkContext& ctx, std::uint64_t region);

    [[nodiscard]] bool active() const noexcept { return active_; }
    // Whether the tests are read too (select=write: only written).
    [[nodiscard]] bool reads() const noexcept { return reads_; }
    [[nodiscard]] bool writes(const ProfileTest& test) const noexcept;
    // The mixed test, when it runs (destroy mode and `mix` not empty).
    [[nodiscard]] const std::optional<ProfileTest>& mix() const noexcept { return mix_; }
    // How many timed runs the column adds to `tests` (progress shares).
    [[nodiscard]] std::size_t runs(const std::vector<ProfileTest>& tests) const;

    // The bars, after the read ones (call once, before the first test).
    void add_series();
    // A test writes() said no to, for the note (nothing when inactive).
    void leave_out(const ProfileTest& test);
    // Writes `test`, which writes() must allow (plan: the read's, whose
    // region, timing, seed and progress it takes); false when cancelled.
    bool write_test(std::size_t index, const ProfileTest& test, TimedRunPlan plan);
    // The mixed test at x = `index`; false when cancelled.
    bool mixed_test(std::size_t index, TimedRunPlan plan, std::size_t read_series);
    // After the last test: written_tests, syncs, and the notes.
    void finish();

private:
    struct WrittenFigures {
        double mb_s = 0, iops = 0;
        std::uint64_t bytes = 0;
        double seconds = 0;
        const LatencyHistogram& latency;
    };
    void record(std::size_t index, const std::string& test, const WrittenFigures& figures);

    BenchmarkContext& ctx_;
    bool active_ = false;
    bool reads_ = true;
    WriteMode mode_ = WriteMode::Preserve;
    std::optional<ProfileTest> mix_;
    std::uint64_t region_ = 0;
    std::size_t throughput_series_ = 0, iops_series_ = 0, p99_series_ = 0;
    std::string written_;
    std::string left_out_;
    std::uint64_t syncs_ = 0;
};

} // namespace diskbench::engine::benchmarks
