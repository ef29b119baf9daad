// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>

namespace diskbench::engine {

// Set from any thread to ask a running benchmark to stop. The I/O loops poll
// it between submissions, so a benchmark stops within one I/O's latency and
// returns what it measured so far.
class CancelToken {
public:
    void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
    [[nodiscard]] bool cancelled() const noexcept { return cancelled_.load(std::memory_order_relaxed); }

private:
    std::atomic<bool> cancelled_ { false };
};

} // namespace diskbench::engine
