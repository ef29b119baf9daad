// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The block-layer cross-check: what the benchmark asked for against what
// the block layer counted, phase by phase. It tells a result that a cache
// answered, that the page cache absorbed writes, or that someone else used
// the disk at the same time.

#include "../base/unique_fd.hpp"
#include "../io/io_runner.hpp"
#include "../results/recorder.hpp"
#include "../results/result.hpp"
#include "checked_device.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace diskbench::engine::storage {

// Below this share of what was read the device did not serve the reads
// itself: a cache did (the same figure for writes: the page cache kept them).
inline constexpr double served_minimum = 0.95;
// More than this beyond what the benchmark asked for is someone else's I/O:
// 1 % of the phase's bytes, and at least foreign_floor_bytes, so that a
// few sectors the kernel or udev read (partition probing after a change
// event) do not count as another program.
inline constexpr double foreign_share = 0.01;
inline constexpr std::uint64_t foreign_floor_bytes = 64 * 1024;

// One phase's figures (runs of the same name added up).
struct PhaseFigures {
    std::string name;
    std::uint64_t issued_read = 0, issued_write = 0;
    std::uint64_t device_read = 0, device_write = 0;
    std::uint64_t backing_read = 0, backing_write = 0;
    // For the plausibility checks against the link and the medium.
    std::uint64_t operations = 0;
    double seconds = 0;
    double latency_sum_us = 0;  // mean latency x operations, summed over runs
    bool random = false;        // any run of the phase read at random offsets
    unsigned in_flight = 1;     // the most I/Os in flight of its runs
    [[nodiscard]] double mb_per_s() const noexcept;
    [[nodiscard]] double iops() const noexcept;
    [[nodiscard]] double mean_latency_us() const noexcept;
    [[nodiscard]] std::uint64_t foreign_tolerance() const noexcept;
    [[nodiscard]] std::uint64_t foreign_read() const noexcept;  // 0 within the tolerance
    [[nodiscard]] std::uint64_t foreign_write() const noexcept;
};

class BlockCrossCheck final : public PhaseObserver {
public:
    BlockCrossCheck(Sysfs sysfs, CheckedDevices devices);

    void phase_starting(const IoRunSpec& spec) override;
    void phase_finished(const IoRunSpec& spec, const IoRunStats& stats) override;

    // Adds the summary keys, warnings and notes to the result (once, at the end).
    void report(Result& result, Recorder& recorder) const;

    [[nodiscard]] std::vector<PhaseFigures> phases() const;
    [[nodiscard]] const CheckedDevices& devices() const noexcept { return devices_; }

private:
    Sysfs sysfs_;
    CheckedDevices devices_;
    mutable std::mutex mutex_;
    BlockCounters device_before_, backing_before_;
    bool device_ok_ = false, backing_ok_ = false;
    static UniqueFd open_backing_file(const std::string& path, const FileIdentity& backing);

    // A loop device without direct I/O: its backing file, opened when the
    // check is made (as the daemon: the caller may not open it), to ask the
    // page cache how much of it it holds.
    UniqueFd backing_file_;
    bool backing_unidentified_ = false; // wanted, but sysfs' path led elsewhere
    std::optional<double> backing_cached_;
    std::vector<PhaseFigures> phases_;
};

// A rotating disk cannot do more random I/Os a second than this (a 15,000
// rpm disk's half turn alone is 2 ms; command queueing gains a few
// times), nor answer a random read at queue depth 1 faster than this.
inline constexpr double rotational_max_iops = 1000;
inline constexpr double rotational_min_latency_us = 1000;
// A phase faster than the link's limit by more than this share was not
// served through the link.
inline constexpr double link_margin = 0.05;

// For tests: the warnings and summary keys report() would add, from figures.
void report_phases(const CheckedDevices& devices, const std::vector<PhaseFigures>& phases, Result& result,
                   Recorder& recorder);

} // namespace diskbench::engine::storage
