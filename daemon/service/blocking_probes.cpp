// SPDX-License-Identifier: GPL-3.0-or-later
#include "blocking_probes.hpp"

#include "log.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <system_error>
#include <thread>

namespace diskbench::service {

namespace {

std::atomic<std::size_t> threads_out { 0 };

} // namespace

// What the probe threads share with the loop thread. `open` turns false
// when the BlockingProbes goes away: a thread that returns after that
// posts nothing, and an answer already posted is not applied.
struct BlockingProbes::Shared {
    std::mutex mutex;
    std::condition_variable answered;
    std::set<std::string> out;
    MainLoop* loop = nullptr;
    bool open = true; // loop thread only
};

BlockingProbes::BlockingProbes(MainLoop& loop, std::size_t most)
    : loop_(loop), most_(most), shared_(std::make_shared<Shared>())
{
    shared_->loop = &loop;
}

BlockingProbes::~BlockingProbes()
{
    std::lock_guard lock(shared_->mutex);
    shared_->loop = nullptr;
    shared_->open = false;
}

bool BlockingProbes::start(const std::string& key, Work work, std::chrono::milliseconds deadline,
                           std::function<void()> not_answered)
{
    {
        std::lock_guard lock(shared_->mutex);
        if (shared_->out.count(key) || shared_->out.size() >= most_)
            return false;
        shared_->out.insert(key);
    }
    try {
        ++threads_out;
        std::thread([shared = shared_, key, work = std::move(work)] {
            Answer answer;
            try {
                answer = work();
            } catch (const std::exception& error) {
                log_debug("probe {} failed: {}", key, error.what());
            }
            {
                std::lock_guard lock(shared->mutex);
                shared->out.erase(key);
                if (shared->loop && answer)
                    shared->loop->post([shared, answer = std::move(answer)] {
                        if (shared->open)
                            answer();
                    });
            }
            shared->answered.notify_all();
            --threads_out;
        }).detach();
    } catch (const std::system_error& error) {
        --threads_out;
        std::lock_guard lock(shared_->mutex);
        shared_->out.erase(key);
        log_warning("no thread for probe {}: {}", key, error.what());
        return false;
    }
    if (deadline.count() > 0 && not_answered)
        loop_.add_timer(deadline, [this, shared = shared_, key, not_answered = std::move(not_answered)] {
            // The probe of `key` that is out now may be a later one; it is
            // late all the same.
            if (shared->open && out(key))
                not_answered();
        });
    return true;
}

bool BlockingProbes::out(const std::string& key) const
{
    std::lock_guard lock(shared_->mutex);
    return shared_->out.count(key) > 0;
}

bool BlockingProbes::settle(std::chrono::milliseconds limit)
{
    bool none_out = false;
    {
        std::unique_lock lock(shared_->mutex);
        none_out = shared_->answered.wait_for(lock, limit, [this] { return shared_->out.empty(); });
    }
    loop_.run_posted_tasks();
    return none_out;
}

std::size_t BlockingProbes::outstanding() noexcept
{
    return threads_out.load();
}

} // namespace diskbench::service
