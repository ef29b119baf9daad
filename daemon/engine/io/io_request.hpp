// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>

namespace diskbench::engine {

struct IoRequest {
    std::uint64_t offset = 0;
    std::uint32_t length = 0;
    // Only in a run of IoDirection::Mixed: this request writes.
    bool write = false;
};

struct IoCompletion {
    IoRequest request;
    std::uint64_t submitted_ns = 0; // monotonic_ns() when handed to the kernel
    std::uint64_t completed_ns = 0; // monotonic_ns() when its completion was reaped
    // 0, or the errno of a read that failed in a run that tolerates read
    // errors (IoRunSpec::tolerate_read_errors): nothing was read.
    int error = 0;
    // The bytes read (or written), valid only during the observer's call:
    // a verifying reader compares them there. Null for a failed request.
    const std::byte* data = nullptr;
    [[nodiscard]] std::uint64_t latency_ns() const noexcept { return completed_ns - submitted_ns; }
};

// The ordered requests of one worker. Returning false ends that worker.
class RequestSource {
public:
    virtual ~RequestSource() = default;
    virtual bool next(IoRequest& request) = 0;
};

// Told of every completed I/O. Called on the worker's thread; for one worker
// the calls never overlap, but different workers may call at the same time.
class CompletionObserver {
public:
    virtual ~CompletionObserver() = default;
    virtual void completed(unsigned worker, const IoCompletion& completion) = 0;
};

} // namespace diskbench::engine
