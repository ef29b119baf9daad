// SPDX-License-Identifier: GPL-3.0-or-later
#include "io_runner.hpp"

#include "../base/errors.hpp"
#include "../base/prng.hpp"
#include "io_worker.hpp"
#include "io_wq_bound.hpp"
#include "write_data.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>

namespace diskbench::engine {

std::string_view backend_name(BackendKind kind) noexcept
{
    return kind == BackendKind::IoUring ? "io_uring" : "psync";
}

double IoRunStats::megabytes_per_second() const noexcept
{
    const double s = seconds();
    return s > 0 ? static_cast<double>(bytes) / 1e6 / s : 0.0;
}

double IoRunStats::iops() const noexcept
{
    const double s = seconds();
    return s > 0 ? static_cast<double>(operations) / s : 0.0;
}

double IoRunStats::cpu_percent() const noexcept
{
    const double s = seconds();
    return s > 0 ? static_cast<double>(cpu.user_ns + cpu.system_ns) / 1e9 / s * 100.0 : 0.0;
}

bool is_media_error(int error_number) noexcept
{
    switch (error_number) {
    case EIO:
    case ENODATA:
    case EILSEQ:
    case ETIMEDOUT:
    case EREMOTEIO:
    case EBADMSG:
        return true;
    default:
        return false;
    }
}

namespace detail {

void prepare_write_buffers(const RunShared& shared, unsigned worker, std::byte* const* slots, unsigned count)
{
    if (shared.spec.direction == IoDirection::Read || shared.spec.buffers)
        return;
    if (shared.spec.pattern) {
        for (unsigned i = 0; i < count; ++i)
            shared.spec.pattern->fill(slots[i], shared.spec.max_request_bytes);
        return;
    }
    for (unsigned i = 0; i < count; ++i) {
        SplitMix64 mixer(shared.spec.data_seed ^ (static_cast<std::uint64_t>(worker) << 32) ^ i);
        fill_pseudo_random(slots[i], shared.spec.max_request_bytes, mixer.next());
    }
}

int finish_short_write(int fd, const std::byte* block, const IoRequest& request, std::uint32_t done)
{
    while (done < request.length) {
        const ssize_t n = ::pwrite(fd, block + done, request.length - done, static_cast<off_t>(request.offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return errno;
        if (n == 0)
            return EIO; // no progress and no reason: do not spin
        done += static_cast<std::uint32_t>(n);
    }
    return 0;
}

IoError request_error(const RunShared& shared, const IoRequest& request, long result)
{
    const bool write = writes(shared.spec, request);
    if (result < 0)
        return IoError(Failure { write ? "error-write-failed" : "error-read-failed",
                                 { { "target", shared.target.name },
                                   { "length", request.length },
                                   { "offset", request.offset },
                                   { "reason", std::strerror(static_cast<int>(-result)) } } },
                       static_cast<int>(-result));
    return IoError(Failure { write ? "error-short-write" : "error-short-read",
                             { { "target", shared.target.name },
                               { "offset", request.offset },
                               { "done", result },
                               { "length", request.length } } },
                   EIO);
}

} // namespace detail

IoRunner::IoRunner(BackendPreference preference, ResourceBudget* budget)
    : backend_(BackendKind::Psync), budget_(budget)
{
    if (preference == BackendPreference::Psync)
        return;
    const std::string why_not = detail::probe_io_uring();
    if (why_not.empty()) {
        backend_ = BackendKind::IoUring;
        return;
    }
    if (preference == BackendPreference::IoUring)
        throw Error(why_not);
    fallback_reason_ = why_not;
}

std::string IoRunner::io_uring_features() const
{
    std::lock_guard lock(features_mutex_);
    return features_used_ ? features_used_->describe() : std::string();
}

ResourceBudget::Reservation IoRunner::reserve(std::uint64_t threads, std::uint64_t buffer_bytes) const
{
    if (!budget_)
        return {};
    return budget_->reserve(threads, buffer_bytes);
}

std::uint64_t IoRunner::threads_for(const IoRunSpec& spec) const noexcept
{
    const std::uint64_t per_worker
        = backend_ == BackendKind::Psync ? spec.queue_depth : detail::threads_per_ring(spec.queue_depth);
    return std::uint64_t { spec.workers } * per_worker;
}

IoRunStats IoRunner::run(const Target& target, const IoRunSpec& spec) const
{
    if (spec.workers == 0 || spec.queue_depth == 0 || spec.max_request_bytes == 0 || !spec.make_source)
        throw Error("internal: I/O run without workers, queue depth, request size or source");

    const ResourceBudget::Reservation reservation
        = reserve(threads_for(spec), std::uint64_t { spec.workers } * spec.queue_depth * spec.max_request_bytes);

    // Sources are made before the clock starts, so their setup is not timed.
    std::vector<std::unique_ptr<RequestSource>> sources;
    sources.reserve(spec.workers);
    for (unsigned i = 0; i < spec.workers; ++i)
        sources.push_back(spec.make_source(i));

    // As close to the clock's start as the cross-check can read without
    // costing the workers anything: the threads start right after.
    if (phase_observer_)
        phase_observer_->phase_starting(spec);
    detail::RunShared shared(target, spec);
    std::vector<detail::WorkerOutcome> outcomes(spec.workers);
    {
        std::vector<std::jthread> threads;
        threads.reserve(spec.workers);
        try {
            for (unsigned i = 0; i < spec.workers; ++i) {
                threads.emplace_back([&, i] {
                    if (backend_ == BackendKind::IoUring)
                        detail::run_uring_worker(shared, i, *sources[i], outcomes[i]);
                    else
                        detail::run_psync_worker(shared, i, *sources[i], outcomes[i]);
                });
            }
        } catch (...) {
            // Could not start every thread: release the ones that did start
            // (they see `abort` and do nothing) before joining them.
            shared.abort = true;
            shared.ready.count_down(static_cast<std::ptrdiff_t>(spec.workers - threads.size()));
            shared.go.count_down();
            throw;
        }
        shared.ready.wait();
        shared.started_ns = monotonic_ns();
        if (spec.time_limit_ns)
            shared.deadline_ns = shared.started_ns + spec.time_limit_ns;
        shared.go.count_down();
    }

    IoRunStats stats;
    stats.started_ns = shared.started_ns;
    stats.finished_ns = shared.started_ns;
    for (auto& outcome : outcomes) {
        if (outcome.error)
            std::rethrow_exception(outcome.error);
        stats.operations += outcome.operations;
        stats.bytes += outcome.bytes;
        stats.failed_operations += outcome.failed_operations;
        stats.failed_bytes += outcome.failed_bytes;
        stats.finished_ns = std::max(stats.finished_ns, outcome.last_completion_ns);
        stats.latency.merge(outcome.latency);
        stats.cpu.user_ns += outcome.cpu.user_ns;
        stats.cpu.system_ns += outcome.cpu.system_ns;
    }
    stats.cancelled = spec.cancel && spec.cancel->cancelled();
    if (backend_ == BackendKind::IoUring) {
        detail::RingFeatures common = outcomes.front().ring_features;
        for (const auto& outcome : outcomes)
            common = common.common_with(outcome.ring_features);
        stats.io_uring_features = common.describe();
        std::lock_guard lock(features_mutex_);
        features_used_ = features_used_ ? features_used_->common_with(common) : common;
    }
    if (phase_observer_)
        phase_observer_->phase_finished(spec, stats);
    return stats;
}

} // namespace diskbench::engine
