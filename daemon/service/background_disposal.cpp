// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_disposal.hpp"


namespace diskbench::service {

BackgroundDisposal::~BackgroundDisposal()
{
    for (auto& worker : workers_)
        if (worker.thread.joinable())
            worker.thread.join();
}

void BackgroundDisposal::start(std::function<void()> work)
{
    std::lock_guard lock(mutex_);
    // Reap the finished ones first, so the list stays short.
    std::erase_if(workers_, [](Worker& worker) {
        if (!worker.done->load())
            return false;
        worker.thread.join();
        return true;
    });
    auto done = std::make_shared<std::atomic<bool>>(false);
    std::thread thread([work = std::move(work), done] {
        work();
        done->store(true);
    });
    workers_.push_back(Worker { std::move(thread), std::move(done) });
}

} // namespace diskbench::service
