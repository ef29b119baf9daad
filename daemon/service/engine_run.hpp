// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../engine/base/cancel_token.hpp"
#include "../engine/benchmark.hpp"
#include "../engine/io/resource_budget.hpp"
#include "../engine/io/target.hpp"
#include "../engine/sandbox/fs_scope.hpp"
#include "job_sink.hpp"

#include "contract/failure_messages.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace diskbench::service {

// What the engine thread hands back, by value, so the bus thread never reads
// memory the engine thread is still writing.
struct EngineOutcome {
    engine::Result result;
    std::string error_name; // the D-Bus error name when it failed
    std::string error_message;
    // The same failure as data (Job.Failure), when it is the catalogue's.
    std::optional<contract::FailureReport> failure;
};

// One benchmark's engine thread and everything that thread uses: the opened
// device or the caller's folder, the sample sink, the cancel flag and the
// owner's resource budget. Shared by the job object and the thread itself,
// because a device can stop answering (a dying USB stick, a stalled network
// block device): a read already at the device cannot be taken back, and its
// buffer must stay ours until the kernel is done with it. The job then ends
// without the thread (see JobObject), and this object, with the device's fd,
// the buffers and the scratch folder, lives on in the thread until the I/O
// returns. Nothing here touches D-Bus.
class EngineRun : public std::enable_shared_from_this<EngineRun> {
public:
    EngineRun(const engine::BenchmarkInfo& benchmark, engine::ParameterSet parameters, engine::Target target,
              std::unique_ptr<engine::FilesystemScope> scope, std::shared_ptr<engine::ResourceBudget> budget);
    ~EngineRun();
    EngineRun(const EngineRun&) = delete;
    EngineRun& operator=(const EngineRun&) = delete;

    // Starts the thread. `returned` runs on that thread once the engine has
    // returned and the folder's scratch files are gone; it must only hand
    // the outcome over (MainLoop::post), not touch bus objects. Throws
    // std::system_error when no thread can be made (then nothing runs).
    void start(std::function<void(std::shared_ptr<EngineOutcome>)> returned);
    void cancel() noexcept { cancel_.cancel(); }

    // Waits at most `limit` for the thread to return; joins it and answers
    // true when it has. Bus thread.
    bool wait_returned(std::chrono::milliseconds limit);
    // Lets the thread finish on its own, however long its device takes.
    void abandon() noexcept;
    [[nodiscard]] bool returned() const noexcept { return returned_flag_.load(std::memory_order_acquire); }

    [[nodiscard]] JobSink& sink() noexcept { return sink_; }
    [[nodiscard]] bool in_folder() const noexcept { return in_folder_; }
    // The scope of a run that never started, to be disposed of off the bus
    // thread (removing its scratch folder may block).
    std::unique_ptr<engine::FilesystemScope> take_scope() { return std::move(scope_); }

    // Engine threads started and not yet returned, in the whole daemon:
    // when it is told to stop it must not wait for them, nor unwind past
    // them (see main()).
    [[nodiscard]] static std::size_t outstanding() noexcept;

private:
    EngineOutcome run_engine();

    const engine::BenchmarkInfo& benchmark_;
    const engine::ParameterSet parameters_; // validated once, in read_start_request
    engine::Target target_;
    std::unique_ptr<engine::FilesystemScope> scope_;
    std::shared_ptr<engine::ResourceBudget> budget_;
    const bool in_folder_;
    JobSink sink_;
    engine::CancelToken cancel_;
    std::thread thread_;
    std::promise<void> returned_promise_;
    std::future<void> returned_future_;
    std::atomic<bool> returned_flag_ { false };
};

} // namespace diskbench::service
