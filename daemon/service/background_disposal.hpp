// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace diskbench::service {

// Destroys things whose destructor may block, off the bus thread. A
// folder benchmark's scope removes its scratch folder when it goes, and a
// stalled filesystem (NFS, a caller's FUSE server that stops answering)
// would freeze the daemon for everyone if that happened on the bus thread.
//
// One thread per disposal, each for the user it is done for: a removal
// that never comes back holds its thread (and the scope's own) for good,
// so the Manager asks pending() and refuses new starts of a user who has
// too many (UserLimits), instead of piling threads up. The destructor
// waits for everything handed over.
class BackgroundDisposal {
public:
    BackgroundDisposal() = default;
    ~BackgroundDisposal();
    BackgroundDisposal(const BackgroundDisposal&) = delete;
    BackgroundDisposal& operator=(const BackgroundDisposal&) = delete;

    template <typename T>
    void dispose(uid_t owner, std::unique_ptr<T> thing)
    {
        if (!thing)
            return;
        // Only the worker holds it: a copy left here would be the last one
        // whenever the worker got there first, and the destructor would
        // run (and block) on the bus thread after all.
        start(owner, [shared = std::shared_ptr<T>(std::move(thing))]() mutable { shared.reset(); });
    }

    // Disposals not finished yet, of `owner` or of everyone.
    [[nodiscard]] std::size_t pending(std::optional<uid_t> owner = std::nullopt) const;
    [[nodiscard]] bool empty() const { return pending() == 0; }

private:
    struct Worker {
        uid_t owner = 0;
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    void start(uid_t owner, std::function<void()> work);
    // Joins the finished ones, so the list holds only what is still under way.
    void reap() const;

    mutable std::mutex mutex_;
    mutable std::vector<Worker> workers_;
};

} // namespace diskbench::service
