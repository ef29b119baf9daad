// SPDX-License-Identifier: GPL-3.0-or-later
// The surface scan's fault log (daemon/engine/benchmarks/surface_faults):
// bad ranges merged as the scan goes forward, counted once, bounded, the
// limits that stop a scan of a dead drive, and the slow candidates kept
// (the slowest, when there are too many). The scan itself, on a real block
// device with planted bad and slow sectors, is in
// tests/integration/test_surface_scan.py.
#include "benchmarks/surface_faults.hpp"

#include <catch2/catch.hpp>

#include <cerrno>

using namespace diskbench::engine;
using namespace diskbench::engine::benchmarks;

namespace {

FaultLimits limits_for(std::uint64_t span)
{
    FaultLimits limits;
    limits.span = span;
    limits.logical_block = 512;
    limits.max_bad_ranges = 3;
    limits.max_bad_percent = 1.0;
    limits.slow_floor_ms = 5;
    return limits;
}

IoCompletion read_taking(std::uint64_t offset, double ms)
{
    IoCompletion c;
    c.request = { offset, 1 << 20, false };
    c.submitted_ns = 1'000'000'000;
    c.completed_ns = c.submitted_ns + static_cast<std::uint64_t>(ms * 1e6);
    return c;
}

} // namespace

TEST_CASE("bad ranges of consecutive failed reads merge, their bytes counted once", "[faults]")
{
    FaultLog log(limits_for(1ULL << 30));
    // A range across a read boundary comes as the end of one read's blocks
    // and the start of the next one's.
    CHECK(log.add_bad({ { 4096, 512, EIO, true }, { 1048064, 512, EIO, true } }));
    CHECK(log.add_bad({ { 1048576, 1024, EIO, true } }));
    const auto ranges = log.bad_ranges();
    REQUIRE(ranges.size() == 2);
    CHECK(ranges[0].offset == 4096);
    CHECK(ranges[1].offset == 1048064);
    CHECK(ranges[1].length == 1536);
    CHECK(log.bad_range_count() == 2);
    CHECK(log.bad_bytes() == 2048);
    CHECK(log.failed_reads() == 2);
    // Another error is another range, even when touching.
    CHECK(log.add_bad({ { 1049600, 512, ENODATA, true } }));
    CHECK(log.bad_range_count() == 3);
    CHECK(log.stop_reason().empty());
}

TEST_CASE("the scan stops past max_bad_ranges or max_bad_percent, and says which", "[faults]")
{
    FaultLog many(limits_for(1ULL << 30));
    for (std::uint64_t i = 0; i < 3; ++i)
        CHECK(many.add_bad({ { i * 1048576, 512, EIO, true } }));
    CHECK_FALSE(many.add_bad({ { 3 * 1048576, 512, EIO, true } }));
    CHECK(many.stop_reason() == "max-bad-ranges");

    FaultLog big(limits_for(100 * 1048576)); // 1 % is 1 MiB
    CHECK(big.add_bad({ { 0, 1048576, EIO, true } }));
    CHECK_FALSE(big.add_bad({ { 2 * 1048576, 512, EIO, true } }));
    CHECK(big.stop_reason() == "max-bad-percent");
}

TEST_CASE("the kept ranges are bounded; the rest is counted", "[faults]")
{
    FaultLimits limits = limits_for(1ULL << 40);
    limits.max_bad_ranges = 1'000'000;
    limits.max_bad_percent = 100;
    FaultLog log(limits);
    for (std::uint64_t i = 0; i < FaultLog::max_bad_kept + 5; ++i)
        log.add_bad({ { i * 4096, 512, EIO, true } });
    CHECK(log.bad_ranges().size() == FaultLog::max_bad_kept);
    CHECK(log.bad_range_count() == FaultLog::max_bad_kept + 5);
    CHECK(log.bad_bytes() == (FaultLog::max_bad_kept + 5) * 512);
}

TEST_CASE("slow candidates: reads at the floor and above, the slowest kept when full", "[faults]")
{
    FaultLog log(limits_for(1ULL << 30));
    log.add_read(read_taking(0, 4.9));
    log.add_read(read_taking(1 << 20, 5.0));
    log.add_read(read_taking(2 << 20, 80.0));
    auto slow = log.slow_candidates();
    REQUIRE(slow.size() == 2);
    CHECK(slow[0].offset == 1 << 20);
    CHECK(slow[1].ms == Approx(80.0));

    FaultLog full(limits_for(1ULL << 40));
    for (std::uint64_t i = 0; i < FaultLog::max_slow_kept; ++i)
        full.add_read(read_taking(i << 20, 6.0));
    full.add_read(read_taking(1ULL << 39, 500.0)); // slower than all kept: replaces one
    full.add_read(read_taking(1ULL << 38, 5.5));   // faster than all kept: dropped
    slow = full.slow_candidates();
    CHECK(slow.size() == FaultLog::max_slow_kept);
    CHECK(full.slow_candidates_dropped() == 2);
    CHECK(std::any_of(slow.begin(), slow.end(), [](const SlowRead& r) { return r.ms == Approx(500.0); }));
    CHECK(std::none_of(slow.begin(), slow.end(), [](const SlowRead& r) { return r.ms == Approx(5.5); }));
}

TEST_CASE("media errors are tolerated, our own mistakes are not", "[faults]")
{
    for (int e : { EIO, ENODATA, EILSEQ, ETIMEDOUT, EREMOTEIO, EBADMSG })
        CHECK(is_media_error(e));
    for (int e : { EINVAL, ENXIO, EBADF, ENOMEM, EFAULT, 0 })
        CHECK_FALSE(is_media_error(e));
}
