// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_run.hpp"

#include "bus_errors.hpp"

namespace diskbench::service {

namespace {
std::atomic<std::size_t> threads_outstanding { 0 };
} // namespace

EngineRun::EngineRun(const engine::BenchmarkInfo& benchmark, engine::ParameterSet parameters, engine::Target target,
                     std::unique_ptr<engine::FilesystemScope> scope, std::shared_ptr<engine::ResourceBudget> budget)
    : benchmark_(benchmark)
    , parameters_(std::move(parameters))
    , target_(std::move(target))
    , scope_(std::move(scope))
    , budget_(std::move(budget))
    , in_folder_(scope_ != nullptr)
    , returned_future_(returned_promise_.get_future())
{
}

EngineRun::~EngineRun()
{
    // The owner has joined or abandoned the thread; when the thread itself
    // drops the last reference it cannot join itself.
    if (thread_.joinable()) {
        if (thread_.get_id() == std::this_thread::get_id())
            thread_.detach();
        else
            thread_.join();
    }
}

std::size_t EngineRun::outstanding() noexcept
{
    return threads_outstanding.load(std::memory_order_acquire);
}

void EngineRun::start(std::function<void(std::shared_ptr<EngineOutcome>)> returned)
{
    threads_outstanding.fetch_add(1, std::memory_order_acq_rel);
    try {
        // The thread keeps this object alive: an abandoned run's buffers and
        // fd go only when its I/O has come back.
        thread_ = std::thread([self = shared_from_this(), returned = std::move(returned)] {
            auto outcome = std::make_shared<EngineOutcome>(self->run_engine());
            self->returned_flag_.store(true, std::memory_order_release);
            returned(std::move(outcome));
            // Last: once this is 0 the daemon may end, and nothing of the
            // loop that `returned` posted to is used any more.
            threads_outstanding.fetch_sub(1, std::memory_order_acq_rel);
            self->returned_promise_.set_value();
        });
    } catch (...) {
        threads_outstanding.fetch_sub(1, std::memory_order_acq_rel);
        throw;
    }
}

EngineOutcome EngineRun::run_engine()
{
    EngineOutcome outcome;
    try {
        if (scope_)
            outcome.result = engine::run_directory_benchmark(benchmark_, *scope_, parameters_, &sink_, cancel_,
                                                             budget_.get());
        else
            outcome.result = engine::run_benchmark(benchmark_, target_, parameters_, &sink_, cancel_, budget_.get());
    } catch (const std::exception& error) {
        outcome.error_name = std::string(error_name(error_code_of(error)));
        outcome.error_message = error.what();
        outcome.failure = failure_report_of(error);
    }
    // The scratch folder goes here, on this thread, not on the bus thread:
    // removing many files can take a while, and "ended" should mean "gone".
    scope_.reset();
    // The device is not ours any more, and the owner's budget is free.
    target_.fd.reset();
    budget_.reset();
    return outcome;
}

bool EngineRun::wait_returned(std::chrono::milliseconds limit)
{
    if (!thread_.joinable())
        return returned();
    if (returned_future_.wait_for(limit) != std::future_status::ready)
        return false;
    thread_.join();
    return true;
}

void EngineRun::abandon() noexcept
{
    if (thread_.joinable())
        thread_.detach();
}

} // namespace diskbench::service
