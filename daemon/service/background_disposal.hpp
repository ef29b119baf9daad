// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace diskbench::service {

// Destroys things whose destructor may block, off the bus thread. A
// folder benchmark's scope removes its scratch folder when it goes, and a
// stalled filesystem (NFS, a caller's FUSE server that stops answering)
// would freeze the daemon for everyone if that happened on the bus thread.
// The destructor waits for everything handed over.
class BackgroundDisposal {
public:
    BackgroundDisposal() = default;
    ~BackgroundDisposal();
    BackgroundDisposal(const BackgroundDisposal&) = delete;
    BackgroundDisposal& operator=(const BackgroundDisposal&) = delete;

    template <typename T>
    void dispose(std::unique_ptr<T> thing)
    {
        if (!thing)
            return;
        std::shared_ptr<T> shared(std::move(thing));
        start([shared]() mutable { shared.reset(); });
    }

private:
    struct Worker {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    void start(std::function<void()> work);

    std::mutex mutex_;
    std::vector<Worker> workers_;
};

} // namespace diskbench::service
