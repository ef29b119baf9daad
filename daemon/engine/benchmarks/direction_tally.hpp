// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A mixed run's figures by direction (file-profile's and the device
// profile's mixed test): the runner counts a run's bytes, not its reads and
// writes apart.

#include "../io/io_runner.hpp"
#include "../results/latency_histogram.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace diskbench::engine::benchmarks {

// What a mixed run did, by direction: each worker counts into its own
// tally (the runner never calls one worker's observer twice at once).
class DirectionTally final : public CompletionObserver {
public:
    explicit DirectionTally(unsigned workers) : tallies_(workers) {}

    void completed(unsigned worker, const IoCompletion& completion) override
    {
        Part& part = tallies_[worker][completion.request.write ? 1 : 0];
        part.latency.record(completion.latency_ns());
        part.bytes += completion.request.length;
        ++part.operations;
    }

    // Reads (write false) or writes of all workers, over the run's time.
    [[nodiscard]] IoRunStats stats(bool write, const IoRunStats& run) const
    {
        IoRunStats result;
        result.started_ns = run.started_ns;
        result.finished_ns = run.finished_ns;
        for (const auto& tally : tallies_) {
            const Part& part = tally[write ? 1 : 0];
            result.latency.merge(part.latency);
            result.bytes += part.bytes;
            result.operations += part.operations;
        }
        return result;
    }

private:
    struct Part {
        LatencyHistogram latency;
        std::uint64_t bytes = 0;
        std::uint64_t operations = 0;
    };
    std::vector<std::array<Part, 2>> tallies_;
};

} // namespace diskbench::engine::benchmarks
