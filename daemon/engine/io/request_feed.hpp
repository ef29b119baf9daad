// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Requests made on demand by one generator and dealt out to several
// workers while they run: request i of the generator's sequence goes to
// worker i % workers, as the batched writes deal out a batch, but the
// generator is asked for more only when a worker has run out. A run fed so
// keeps every worker's queue full from the first request to the last,
// however many the generator makes, instead of stopping to drain between
// batches (the destroy-mode writes: fio's way, one run and one flush).

#include "io_request.hpp"

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace diskbench::engine {

class RequestFeed {
public:
    // Appends at most `count` requests; appending none ends the feed.
    using Generator = std::function<void(std::vector<IoRequest>& requests, std::size_t count)>;

    // `chunk`: how many requests one call of the generator is asked for
    // (at least one per worker), so the lock is taken about once per
    // chunk / workers requests of each worker, not once per request.
    RequestFeed(Generator generator, unsigned workers, std::size_t chunk);

    // Worker `worker`'s source; the feed must outlive it.
    [[nodiscard]] std::unique_ptr<RequestSource> source(unsigned worker);

    // Moves what is waiting for `worker` into `into` (emptied first),
    // asking the generator for more when nothing waits. False when the
    // generator has ended and nothing is left for this worker.
    bool take(unsigned worker, std::vector<IoRequest>& into);

private:
    Generator generator_;
    std::size_t chunk_;
    std::mutex mutex_;
    std::vector<std::deque<IoRequest>> waiting_; // per worker
    std::vector<IoRequest> made_;                // the generator's last chunk
    std::size_t dealt_ = 0;                      // requests dealt so far
    bool ended_ = false;
};

} // namespace diskbench::engine
