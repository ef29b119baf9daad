// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Reads that may never return, kept off the bus thread. A loop device's
// backing file on a FUSE or NFS mount that stopped answering makes even
// LOOP_GET_STATUS64 wait (the driver stats the file), and a sick drive's
// hwmon sensor can take tens of seconds per read; done on the bus thread,
// either froze the daemon for every user. So each such read runs on a
// thread of its own, hands its answer to the main loop, and the caller
// decides what to publish when no answer came by a deadline. A thread that
// never returns is left behind, like a stuck benchmark run (EngineRun):
// one per question at most, and a bounded number in all.

#include "main_loop.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace diskbench::service {

class BlockingProbes {
public:
    // What the probe found, applied on the loop thread.
    using Answer = std::function<void()>;
    // The blocking read itself: runs on a probe thread, touches nothing of
    // the daemon's, and returns how to apply what it read.
    using Work = std::function<Answer()>;

    explicit BlockingProbes(MainLoop& loop, std::size_t most = 32);
    // Answers that come later are dropped.
    ~BlockingProbes();
    BlockingProbes(const BlockingProbes&) = delete;
    BlockingProbes& operator=(const BlockingProbes&) = delete;

    // Loop thread. Starts `work` unless a probe of `key` is still out or
    // `most` are (then false, and nothing runs). With a `deadline`,
    // `not_answered` runs on the loop thread when the probe has not
    // answered by then; its answer still counts when it comes.
    bool start(const std::string& key, Work work, std::chrono::milliseconds deadline = {},
               std::function<void()> not_answered = {});
    // Loop thread: whether a probe of `key` is out.
    [[nodiscard]] bool out(const std::string& key) const;

    // Waits up to `limit` for every probe to answer, then applies their
    // answers (at start, before the bus name is taken, so the call that
    // activated the daemon sees them). True when none is out.
    bool settle(std::chrono::milliseconds limit);

    // Probe threads not yet returned, in the whole daemon: main() leaves
    // without unwinding past them, as it does for stuck runs.
    [[nodiscard]] static std::size_t outstanding() noexcept;

private:
    struct Shared;
    MainLoop& loop_;
    std::size_t most_;
    std::shared_ptr<Shared> shared_;
};

} // namespace diskbench::service
