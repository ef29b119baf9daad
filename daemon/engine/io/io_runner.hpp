// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../base/cancel_token.hpp"
#include "../base/clock.hpp"
#include "../results/latency_histogram.hpp"
#include "io_request.hpp"
#include "resource_budget.hpp"
#include "ring_features.hpp"
#include "target.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace diskbench::engine {

enum class BackendKind { IoUring, Psync };
enum class BackendPreference { Automatic, IoUring, Psync };

std::string_view backend_name(BackendKind kind) noexcept;

// Mixed: each request says (IoRequest::write); writes as for Write.
enum class IoDirection { Read, Write, Mixed };

// Where the data of each request lives when a benchmark, not the runner,
// owns it: the device write benchmarks' preserve mode reads a batch into
// its own memory and then writes those same bytes back. Called on the I/O
// threads, possibly concurrently, so it must only look up: memory aligned
// to the target's memory_alignment, request.length bytes, valid until
// run() returns.
class RequestBuffers {
public:
    virtual ~RequestBuffers() = default;
    [[nodiscard]] virtual std::byte* buffer_for(const IoRequest& request) const = 0;
};

// What a run's writes carry when the seeded bytes will not do: data that
// is checked when read back (burn-in). fill() prepares each of a worker's
// buffers once, before the clock starts; stamp() is called on a buffer
// just before it goes out as `request`, inside the timing, so it must stay
// cheap (a few stores a sector, as stamp_offsets()).
class WritePattern {
public:
    virtual ~WritePattern() = default;
    virtual void fill(std::byte* buffer, std::uint32_t size) const = 0;
    virtual void stamp(std::byte* buffer, const IoRequest& request) const = 0;
};

struct IoRunSpec {
    unsigned workers = 1;     // threads, each with its own queue
    unsigned queue_depth = 1; // I/Os in flight per worker
    std::uint32_t max_request_bytes = 4096; // largest request a source will make
    // Writes send pseudo-random data (write_data.hpp) drawn from this seed,
    // a different stream per worker and buffer. A short write is finished
    // with pwrite() so a failure reports the real cause (ENOSPC), not
    // "short write".
    IoDirection direction = IoDirection::Read;
    std::uint64_t data_seed = 0;
    // When set, reads land in and writes are sent from these buffers,
    // unchanged (no seeded data, no offset stamps), instead of the worker's.
    const RequestBuffers* buffers = nullptr;
    // When set (and buffers is not), writes carry this pattern instead of
    // the seeded bytes and offset stamps.
    const WritePattern* pattern = nullptr;
    // Called once per worker, before the clock starts.
    std::function<std::unique_ptr<RequestSource>(unsigned worker)> make_source;
    // Stop submitting after this long (0: run until every source is exhausted).
    std::uint64_t time_limit_ns = 0;
    CompletionObserver* observer = nullptr;
    const CancelToken* cancel = nullptr;
    // What the block-layer cross-check calls this run in its warnings
    // ("RND4K Q32T1", "64 KiB blocks"); runs with the same name are added
    // up as one phase. Empty: "the run".
    std::string phase;
    // False for runs whose figures are thrown away (warm-ups, preserve
    // mode's reads): the cross-check leaves them out.
    bool measured = true;
    // Reads or writes at random offsets: the cross-check knows which
    // figures a rotating disk cannot reach.
    bool random = false;
    // A read that fails with a media error (is_media_error) does not end
    // the run: the observer is told (IoCompletion::error) and the run goes
    // on. For the scans of a whole span, where a dying drive's map matters
    // most (surface); any other failure still ends the run.
    bool tolerate_read_errors = false;
    // The same for writes: the capacity check, for which a device that
    // fails writes beyond its real size has told what was asked.
    bool tolerate_write_errors = false;
};

// What a drive says about a sector it cannot read: EIO (the block layer's
// word for a medium error), ENODATA and EILSEQ (critical medium / protection
// errors), ETIMEDOUT (the command timed out), EREMOTEIO (a target error of
// a SCSI/SAS/USB bridge), EBADMSG (a bad checksum). Not EINVAL or ENXIO:
// those are our mistake or a device gone.
bool is_media_error(int error_number) noexcept;

struct IoRunStats {
    std::uint64_t operations = 0;
    std::uint64_t bytes = 0;
    // Reads (or writes) that failed and were tolerated (IoRunSpec::tolerate_*_errors):
    // not in the figures above, but the device saw them.
    std::uint64_t failed_operations = 0;
    std::uint64_t failed_bytes = 0;
    std::uint64_t started_ns = 0;  // when all workers were released together
    std::uint64_t finished_ns = 0; // when the last completion was reaped
    LatencyHistogram latency;
    ThreadCpuTime cpu;             // summed over the I/O threads
    bool cancelled = false;
    // The io_uring features every worker's ring used, e.g.
    // "defer_taskrun,registered_ring,fixed_file,fixed_buffers" or "plain";
    // empty for psync.
    std::string io_uring_features;

    [[nodiscard]] double seconds() const noexcept
    {
        return finished_ns > started_ns ? static_cast<double>(finished_ns - started_ns) / 1e9 : 0.0;
    }
    [[nodiscard]] double megabytes_per_second() const noexcept; // 10^6 bytes
    [[nodiscard]] double iops() const noexcept;
    [[nodiscard]] double cpu_percent() const noexcept;         // of one CPU
};

// Told before and after every run, on the thread that called run(): the
// block-layer cross-check (storage/cross_check.hpp) reads the device's
// counters around each. Not called for a run that failed.
class PhaseObserver {
public:
    virtual ~PhaseObserver() = default;
    virtual void phase_starting(const IoRunSpec& spec) = 0;
    virtual void phase_finished(const IoRunSpec& spec, const IoRunStats& stats) = 0;
};

// Runs a batch of I/O against a target with a chosen backend. With the
// automatic preference it uses io_uring when a ring can be set up here and
// falls back to a psync thread pool (queue depth = threads per worker)
// otherwise; fallback_reason() says why.
class IoRunner {
public:
    // With a budget, every run() reserves its threads and buffers from it
    // for as long as it runs (LimitsError when they do not fit).
    explicit IoRunner(BackendPreference preference, ResourceBudget* budget = nullptr);

    // The one place a benchmark draws on the owner's budget: `threads` and
    // `buffer_bytes` it starts or allocates itself, beside what run()
    // reserves for its own workers (mixed-load's sorting threads, preserve
    // mode's copies, a tree's file data). Held for as long as the returned
    // Reservation lives; reserved before the threads start or the memory
    // is taken, so a run that does not fit fails at once with LimitsError
    // and has done nothing. Without a budget (diskbench-engine, most
    // tests) it reserves nothing.
    [[nodiscard]] ResourceBudget::Reservation reserve(std::uint64_t threads, std::uint64_t buffer_bytes) const;
    // What run() reserves for `spec` on this runner's backend: a psync
    // worker is a pool of queue_depth threads; an io_uring worker is one
    // thread with its ring, plus the kernel's io-wq workers of that ring
    // (threads named iou-wrk-N), which the ring bounds (io_wq_bound.hpp).
    [[nodiscard]] std::uint64_t threads_for(const IoRunSpec& spec) const noexcept;

    [[nodiscard]] BackendKind backend() const noexcept { return backend_; }
    [[nodiscard]] const std::string& fallback_reason() const noexcept { return fallback_reason_; }
    // The io_uring features that every run so far used (empty before the
    // first io_uring run): what a result reports as "io_uring_features".
    [[nodiscard]] std::string io_uring_features() const;

    // Set once, before the first run (the engine does, in run_benchmark()).
    void observe_phases(PhaseObserver* observer) noexcept { phase_observer_ = observer; }

    // Blocks until done, cancelled or failed. An I/O error on any worker stops
    // them all and is rethrown here as IoError.
    IoRunStats run(const Target& target, const IoRunSpec& spec) const;

private:
    BackendKind backend_;
    std::string fallback_reason_;
    ResourceBudget* budget_ = nullptr;
    PhaseObserver* phase_observer_ = nullptr;
    // Runs are const (a benchmark holds a const IoRunner), the record of
    // what they used is not; guarded for runs from several threads.
    mutable std::mutex features_mutex_;
    mutable std::optional<detail::RingFeatures> features_used_;
};

} // namespace diskbench::engine
