// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_disposal.hpp"

#include <algorithm>

namespace diskbench::service {

BackgroundDisposal::~BackgroundDisposal()
{
    for (auto& worker : workers_)
        if (worker.thread.joinable())
            worker.thread.join();
}

void BackgroundDisposal::reap() const
{
    std::erase_if(workers_, [](Worker& worker) {
        if (!worker.done->load())
            return false;
        worker.thread.join(); // it has finished its work: quick
        return true;
    });
}

std::size_t BackgroundDisposal::pending(std::optional<uid_t> owner) const
{
    std::lock_guard lock(mutex_);
    reap();
    return static_cast<std::size_t>(std::count_if(workers_.begin(), workers_.end(), [owner](const Worker& worker) {
        return !owner || worker.owner == *owner;
    }));
}

void BackgroundDisposal::start(uid_t owner, std::function<void()> work)
{
    std::lock_guard lock(mutex_);
    reap();
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([work = std::move(work), done] {
        work();
        done->store(true);
    });
    workers_.push_back(Worker { owner, std::move(thread), std::move(done) });
}

} // namespace diskbench::service
