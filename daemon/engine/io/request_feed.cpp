// SPDX-License-Identifier: GPL-3.0-or-later
#include "request_feed.hpp"

#include <algorithm>

namespace diskbench::engine {

namespace {

// A worker's view of the feed: its share, taken a chunk at a time.
class FedSource final : public RequestSource {
public:
    FedSource(RequestFeed& feed, unsigned worker) noexcept : feed_(feed), worker_(worker) {}
    bool next(IoRequest& request) override
    {
        if (next_ == local_.size()) {
            next_ = 0;
            if (!feed_.take(worker_, local_))
                return false;
        }
        request = local_[next_++];
        return true;
    }

private:
    RequestFeed& feed_;
    unsigned worker_;
    std::vector<IoRequest> local_;
    std::size_t next_ = 0;
};

} // namespace

RequestFeed::RequestFeed(Generator generator, unsigned workers, std::size_t chunk)
    : generator_(std::move(generator))
    , chunk_(std::max<std::size_t>(chunk, std::max(1U, workers)))
    , waiting_(std::max(1U, workers))
{
}

std::unique_ptr<RequestSource> RequestFeed::source(unsigned worker)
{
    return std::make_unique<FedSource>(*this, worker);
}

bool RequestFeed::take(unsigned worker, std::vector<IoRequest>& into)
{
    into.clear();
    const std::lock_guard lock(mutex_);
    std::deque<IoRequest>& mine = waiting_.at(worker);
    // The generator is asked until this worker has something or it ends:
    // a chunk may hold fewer requests than workers.
    while (mine.empty() && !ended_) {
        made_.clear();
        generator_(made_, chunk_);
        if (made_.empty()) {
            ended_ = true;
            break;
        }
        for (const IoRequest& request : made_)
            waiting_[dealt_++ % waiting_.size()].push_back(request);
    }
    into.assign(mine.begin(), mine.end());
    mine.clear();
    return !into.empty();
}

} // namespace diskbench::engine
