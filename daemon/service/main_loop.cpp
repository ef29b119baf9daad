// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_loop.hpp"

#include "log.hpp"

#include <poll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace diskbench::service {

namespace {
// One failing callback must not take the daemon down; it is logged and the
// loop goes on.
void guarded(const char* what, const std::function<void()>& callback)
{
    try {
        callback();
    } catch (const std::exception& error) {
        log_warning("{} failed: {}", what, error.what());
    }
}
} // namespace

MainLoop::MainLoop(sdbus::IConnection& connection)
    : connection_(connection)
{
    wakeup_.reset(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    ::pthread_sigmask(SIG_BLOCK, &mask, nullptr);
    signals_.reset(::signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK));
    if (!wakeup_.valid() || !signals_.valid())
        throw std::runtime_error(std::string("cannot create the event loop's descriptors: ") + std::strerror(errno));
}

void MainLoop::post(std::function<void()> task)
{
    {
        std::lock_guard lock(posted_mutex_);
        posted_.push_back(std::move(task));
    }
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = ::write(wakeup_.get(), &one, sizeof one);
}

MainLoop::TimerId MainLoop::add_timer(std::chrono::milliseconds delay, std::function<void()> callback)
{
    const TimerId id = next_timer_++;
    timers_.emplace(id, Timer { std::chrono::steady_clock::now() + delay, std::move(callback) });
    return id;
}

void MainLoop::cancel_timer(TimerId id)
{
    timers_.erase(id);
}

int MainLoop::poll_timeout_ms() const
{
    using namespace std::chrono;
    std::int64_t timeout = -1;
    const auto bus = connection_.getEventLoopPollData();
    if (bus.timeout_usec != UINT64_MAX) {
        timespec now {};
        ::clock_gettime(CLOCK_MONOTONIC, &now);
        const auto now_usec = static_cast<std::uint64_t>(now.tv_sec) * 1'000'000 + static_cast<std::uint64_t>(now.tv_nsec) / 1000;
        timeout = bus.timeout_usec > now_usec ? static_cast<std::int64_t>((bus.timeout_usec - now_usec + 999) / 1000) : 0;
    }
    const auto now = steady_clock::now();
    for (const auto& [id, timer] : timers_) {
        const auto left = std::max<std::int64_t>(0, duration_cast<milliseconds>(timer.due - now).count() + 1);
        timeout = timeout < 0 ? left : std::min(timeout, left);
    }
    return static_cast<int>(std::min<std::int64_t>(timeout, 60'000));
}

void MainLoop::run_posted_tasks()
{
    std::uint64_t count = 0;
    [[maybe_unused]] const auto got = ::read(wakeup_.get(), &count, sizeof count);
    std::vector<std::function<void()>> tasks;
    {
        std::lock_guard lock(posted_mutex_);
        tasks.swap(posted_);
    }
    for (auto& task : tasks)
        guarded("a posted task", task);
}

void MainLoop::run_due_timers()
{
    const auto now = std::chrono::steady_clock::now();
    std::vector<TimerId> due;
    for (const auto& [id, timer] : timers_)
        if (timer.due <= now)
            due.push_back(id);
    for (TimerId id : due) {
        auto found = timers_.find(id);
        if (found == timers_.end()) // cancelled by an earlier callback
            continue;
        auto callback = std::move(found->second.callback);
        timers_.erase(found);
        guarded("a timer", callback);
    }
}

void MainLoop::run()
{
    running_ = true;
    while (running_) {
        // Everything that may have queued bus traffic runs before computing
        // the poll set, so sd-bus's POLLOUT wish is current.
        try {
            while (connection_.processPendingRequest()) {
            }
        } catch (const std::exception& error) {
            log_warning("error while handling a D-Bus message: {}", error.what());
        }
        const auto bus = connection_.getEventLoopPollData();
        pollfd fds[3] = {
            { bus.fd, bus.events, 0 },
            { wakeup_.get(), POLLIN, 0 },
            { signals_.get(), POLLIN, 0 },
        };
        const int ready = ::poll(fds, 3, poll_timeout_ms());
        if (ready < 0 && errno != EINTR)
            throw std::runtime_error(std::string("poll failed: ") + std::strerror(errno));
        if (fds[0].revents & (POLLHUP | POLLERR)) {
            log_warning("the bus connection closed; exiting");
            running_ = false;
        }
        if (fds[2].revents & POLLIN) {
            signalfd_siginfo info {};
            [[maybe_unused]] const auto got = ::read(signals_.get(), &info, sizeof info);
            log_info("terminating on signal {}", info.ssi_signo);
            running_ = false;
        }
        if (fds[1].revents & POLLIN)
            run_posted_tasks();
        run_due_timers();
    }
}

void MainLoop::flush()
{
    guarded("the last flush", [this] {
        while (connection_.processPendingRequest()) {
        }
    });
}

} // namespace diskbench::service
