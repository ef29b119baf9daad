// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/base/unique_fd.hpp"

#include <sdbus-c++/IConnection.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace diskbench::service {

// The daemon's one event loop. Every D-Bus object, proxy and signal is used
// on the thread that runs it (sd-bus is not thread-safe), so benchmark
// threads hand their results over with post(). It polls the bus connection
// (sdbus-c++'s getEventLoopPollData), an eventfd for posted tasks, a signalfd
// for SIGTERM/SIGINT, and runs one-shot timers.
class MainLoop {
public:
    using TimerId = std::uint64_t;

    // Blocks SIGTERM and SIGINT in the calling thread (and so in threads
    // created after it) and takes them through a signalfd instead.
    explicit MainLoop(sdbus::IConnection& connection);

    // Any thread: runs `task` on the loop thread soon, in posting order.
    void post(std::function<void()> task);

    // Loop thread only.
    TimerId add_timer(std::chrono::milliseconds delay, std::function<void()> callback);
    void cancel_timer(TimerId id);
    void quit() noexcept { running_ = false; }

    // Until quit() or a termination signal.
    void run();
    // Loop thread: runs the tasks posted so far, now.
    void run_posted_tasks();
    // Sends what the last callbacks queued, and handles the messages that
    // came in meanwhile, once the loop has ended.
    void flush();

private:
    void run_due_timers();
    int poll_timeout_ms() const;

    sdbus::IConnection& connection_;
    engine::UniqueFd wakeup_;
    engine::UniqueFd signals_;
    std::mutex posted_mutex_;
    std::vector<std::function<void()>> posted_;
    struct Timer {
        std::chrono::steady_clock::time_point due;
        std::function<void()> callback;
    };
    std::map<TimerId, Timer> timers_;
    TimerId next_timer_ = 1;
    bool running_ = false;
};

} // namespace diskbench::service
