// SPDX-License-Identifier: GPL-3.0-or-later
// Whether the io_uring worker should poll for its next completion before
// sleeping, learnt from how its recent polls went.
//
// A poll pays when the completion arrives within the poll window: the
// thread skips a sleep and its wake-up, which on a fast device cost more
// than the I/O. A poll that runs out only burns CPU, and on machines whose
// CPUs share a core with the one completing the I/O (SMT siblings, or the
// virtual CPUs of a VM; measured on a 2-vCPU VM: a busy loop on one vCPU
// slowed a copy on the other by 22-33 %) it also slows the device path. So the worker
// polls while most recent polls caught their completion and sleeps at once
// otherwise, trying a poll now and then so that a device that became fast
// again (or a wait that was slow once, a preemption) is noticed.
//
// The previous rule looked only at the last wait (poll if it took under
// twice the window). On a disk-backed loop device whose waits sit around
// that bound (40-60 µs), many waits polled in vain, and 4 KiB reads at QD1
// were 4-11 % slower than with this rule.
#pragma once

#include <cstdint>

namespace diskbench::engine::detail {

class PollRule {
public:
    // Poll now?
    bool should_poll() noexcept
    {
        if (success_ >= kPollAbove)
            return true;
        return ++sleeps_since_trial_ % kTrialEvery == 0;
    }

    // How the poll went: whether it found a completion before its window
    // ran out.
    void polled(bool caught) noexcept
    {
        // An exponentially weighted share of caught polls: the last eight
        // or so count most, so six misses in a row switch polling off, and
        // one to six hits (trials), depending on how long the device had
        // been slow, switch it back on.
        success_ = (success_ * (kWeight - 1) + (caught ? kScale : 0)) / kWeight;
        sleeps_since_trial_ = 0;
    }

    // The share of recent polls that caught their completion, 0..1.
    double success_share() const noexcept { return static_cast<double>(success_) / kScale; }

    static constexpr unsigned kTrialEvery = 64;

private:
    static constexpr std::uint32_t kScale = 1 << 16;
    static constexpr std::uint32_t kWeight = 8;
    // Poll while at least half of the recent polls caught their completion.
    static constexpr std::uint32_t kPollAbove = kScale / 2;

    // Starts as if every poll had caught one: a run begins by polling, and a
    // slow device turns it off within a handful of waits.
    std::uint32_t success_ = kScale;
    std::uint32_t sleeps_since_trial_ = 0;
};

} // namespace diskbench::engine::detail
