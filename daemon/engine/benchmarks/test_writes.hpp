// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A CrystalDiskMark-style test (profile_tests.hpp) as writes to the raw
// device, in either mode: the queue-depth sweep's write cells and the
// device Profiles' write column.
//
// Destroy: the test's reads as writes (timed_run with new data), the queue
// at its depth the whole measured time, the warm-up's writes flushed
// before the clock starts, one fdatasync at the end inside the time (fio's
// time_based job with ramp_time and end_fsync=1).
//
// Preserve: batch by batch, each batch's ranges read first (not timed),
// written back unchanged by the test's threads at its depth and synced
// (device_write_support.hpp); the queue empties between batches, the price
// of keeping the data.

#include "device_write_support.hpp"
#include "profile_tests.hpp"
#include "timed_run.hpp"

#include "../base/prng.hpp"
#include "../io/request_sources.hpp"

#include <memory>
#include <vector>

namespace diskbench::engine::benchmarks {

// A test's requests, batch by batch: request i of a batch from thread
// i % threads's stream (batched_writes deals them out that way), random
// places in the region or each thread's own slice of it, round and round.
// The warm-up and the measured run draw from the same streams, as
// timed_run's reads do.
class TestRequests {
public:
    TestRequests(const ProfileTest& test, std::uint64_t seed, std::uint64_t region);

    // From here on at most `max_bytes` (0: no bound), counted per thread as
    // timed_run counts them: each thread max_bytes / block / threads, at
    // least one.
    void limit(std::uint64_t max_bytes, unsigned threads);

    void next_batch(std::vector<IoRequest>& requests, std::size_t count);

private:
    std::uint32_t block_;
    std::uint64_t limit_ = 0;
    std::uint64_t issued_ = 0;
    Xoshiro256StarStar generator_;
    std::vector<std::unique_ptr<RequestSource>> streams_;
};

struct TestWritePlan {
    ProfileTest test;
    std::uint64_t seed = 0;
    std::uint64_t region = 0;
    std::uint64_t warmup_ns = 0;
    std::uint64_t duration_ns = 0;
    std::uint64_t max_bytes = 0;
    double progress_before = 0;
    double progress_share = 0;
};

// Preserve mode; cancelled set when cancelled (also in the warm-up).
BatchedWriteStats preserved_test_writes(BenchmarkContext& ctx, const TestWritePlan& plan);

// Destroy mode, with data from `plan.data_seed`; `plan.direction` Write or
// Mixed. Its time (finished_ns) ends with the fdatasync; `syncs` is told
// how many it made (the warm-up's and the end's).
IoRunStats destroyed_test_writes(BenchmarkContext& ctx, TimedRunPlan plan, std::uint64_t& syncs);

} // namespace diskbench::engine::benchmarks
