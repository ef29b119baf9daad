// SPDX-License-Identifier: GPL-3.0-or-later
#include "surface_faults.hpp"

#include "../base/clock.hpp"
#include "../benchmark_support.hpp"
#include "../io/io_runner.hpp"
#include "../io/request_sources.hpp"
#include "../storage/link.hpp"
#include "../storage/sysfs.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>

namespace diskbench::engine::benchmarks {

namespace {

// A failed read is cut into this many pieces per round: 1 MiB, then 64 KiB,
// then 4 KiB, then the 512-byte sector; a fully bad MiB costs 16 + 256
// re-reads to pin down at 4 KiB.
constexpr std::uint64_t pieces_per_round = 16;

// Reads REQUESTS one at a time (as the scan does), tolerating media errors;
// the completions, in order.
std::vector<IoCompletion> read_each(BenchmarkContext& ctx, std::vector<IoRequest> requests, const char* phase)
{
    std::vector<IoCompletion> done;
    if (requests.empty())
        return done;
    std::uint32_t largest = 0;
    for (const IoRequest& request : requests)
        largest = std::max(largest, request.length);
    done.reserve(requests.size());
    ObserverFunction observer([&](unsigned, const IoCompletion& c) { done.push_back(c); });
    IoRunSpec spec;
    spec.queue_depth = 1;
    spec.max_request_bytes = largest;
    spec.tolerate_read_errors = true;
    spec.measured = false; // not the scan's figures: the cross-check leaves it out
    spec.phase = phase;
    spec.make_source = [&](unsigned) { return std::make_unique<ListSource>(requests); };
    spec.observer = &observer;
    spec.cancel = &ctx.cancel;
    ctx.io.run(ctx.target, spec);
    return done;
}

// A piece of a failed read still to be told good or bad.
struct Suspect {
    std::uint64_t offset, length;
    int error;
};

} // namespace

void FaultLog::add_read(const IoCompletion& completion)
{
    const double ms = static_cast<double>(completion.latency_ns()) / 1e6;
    if (ms < limits_.slow_floor_ms)
        return;
    std::lock_guard lock(mutex_);
    const SlowRead read { completion.request.offset, completion.request.length, ms, -1 };
    if (slow_.size() < max_slow_kept) {
        slow_.push_back(read);
        return;
    }
    // Full: keep the slowest (replace the fastest kept).
    ++slow_dropped_;
    const auto fastest = std::min_element(slow_.begin(), slow_.end(),
                                          [](const SlowRead& a, const SlowRead& b) { return a.ms < b.ms; });
    if (fastest->ms < ms)
        *fastest = read;
}

bool FaultLog::add_bad(const std::vector<BadRange>& ranges)
{
    std::lock_guard lock(mutex_);
    ++failed_reads_;
    // The scan goes forward, so a new range only ever touches the last one.
    for (const BadRange& range : ranges) {
        bad_bytes_ += range.length;
        if (!bad_.empty()) {
            BadRange& last = bad_.back();
            if (range.offset <= last.offset + last.length && range.error == last.error
                && range.offset >= last.offset) {
                const std::uint64_t end = std::max(last.offset + last.length, range.offset + range.length);
                bad_bytes_ -= std::min(range.length, last.offset + last.length - range.offset); // counted once
                last.length = end - last.offset;
                last.narrowed = last.narrowed && range.narrowed;
                continue;
            }
        }
        ++bad_count_;
        if (bad_.size() < max_bad_kept)
            bad_.push_back(range);
    }
    return within_limits();
}

bool FaultLog::within_limits() const
{
    return bad_count_ <= limits_.max_bad_ranges
        && static_cast<double>(bad_bytes_) * 100 <= limits_.max_bad_percent * static_cast<double>(limits_.span);
}

std::string FaultLog::stop_reason() const
{
    std::lock_guard lock(mutex_);
    if (bad_count_ > limits_.max_bad_ranges)
        return "max-bad-ranges";
    if (!within_limits())
        return "max-bad-percent";
    return {};
}

std::vector<BadRange> FaultLog::bad_ranges() const
{
    std::lock_guard lock(mutex_);
    return bad_;
}

std::uint64_t FaultLog::bad_range_count() const
{
    std::lock_guard lock(mutex_);
    return bad_count_;
}

std::uint64_t FaultLog::bad_bytes() const
{
    std::lock_guard lock(mutex_);
    return bad_bytes_;
}

std::uint64_t FaultLog::failed_reads() const
{
    std::lock_guard lock(mutex_);
    return failed_reads_;
}

std::vector<SlowRead> FaultLog::slow_candidates() const
{
    std::lock_guard lock(mutex_);
    return slow_;
}

std::uint64_t FaultLog::slow_candidates_dropped() const
{
    std::lock_guard lock(mutex_);
    return slow_dropped_;
}

std::vector<BadRange> merge_ranges(std::vector<BadRange> ranges, std::size_t keep, std::uint64_t& dropped)
{
    std::sort(ranges.begin(), ranges.end(), [](const BadRange& a, const BadRange& b) { return a.offset < b.offset; });
    std::vector<BadRange> merged;
    dropped = 0;
    for (const BadRange& range : ranges) {
        if (!merged.empty()) {
            BadRange& last = merged.back();
            if (range.offset <= last.offset + last.length && range.error == last.error) {
                last.length = std::max(last.offset + last.length, range.offset + range.length) - last.offset;
                last.narrowed = last.narrowed && range.narrowed;
                continue;
            }
        }
        if (merged.size() < keep)
            merged.push_back(range);
        else
            ++dropped;
    }
    return merged;
}

std::vector<BadRange> narrow_failed_read(BenchmarkContext& ctx, const IoRequest& failed, int error,
                                         const FaultLimits& limits)
{
    const std::uint64_t sector = limits.logical_block;
    std::vector<BadRange> bad;
    std::vector<Suspect> suspects { { failed.offset, failed.length, error } };
    std::uint64_t budget = limits.reread_limit;
    while (!suspects.empty()) {
        // Cut every suspect bigger than a sector into pieces of whole
        // sectors; a sector-sized one is a bad block as it stands.
        std::vector<IoRequest> pieces;
        for (const Suspect& suspect : suspects) {
            if (suspect.length <= sector) {
                bad.push_back({ suspect.offset, suspect.length, suspect.error, true });
                continue;
            }
            const std::uint64_t sectors = suspect.length / sector;
            const std::uint64_t piece = std::max<std::uint64_t>(1, (sectors + pieces_per_round - 1) / pieces_per_round) * sector;
            const std::uint64_t count = (suspect.length + piece - 1) / piece;
            if (count > budget || ctx.cancel.cancelled()) {
                // Out of re-reads: what is not narrowed yet counts as bad.
                bad.push_back({ suspect.offset, suspect.length, suspect.error, false });
                continue;
            }
            budget -= count;
            for (std::uint64_t at = suspect.offset; at < suspect.offset + suspect.length; at += piece)
                pieces.push_back({ at, static_cast<std::uint32_t>(std::min(piece, suspect.offset + suspect.length - at)),
                                  false });
        }
        std::vector<Suspect> next_round;
        for (const IoCompletion& c : read_each(ctx, std::move(pieces), "re-reads of failed reads"))
            if (c.error)
                next_round.push_back({ c.request.offset, c.request.length, c.error });
        suspects = std::move(next_round);
    }
    std::uint64_t unused = 0;
    return merge_ranges(std::move(bad), SIZE_MAX, unused);
}

std::vector<SlowRead> judge_slow_reads(BenchmarkContext& ctx, const FaultLog& log, double threshold_ms, bool reread)
{
    std::vector<SlowRead> slow;
    for (const SlowRead& read : log.slow_candidates())
        if (read.ms >= threshold_ms)
            slow.push_back(read);
    // The slowest first: those are re-read when there are too many.
    std::sort(slow.begin(), slow.end(), [](const SlowRead& a, const SlowRead& b) { return a.ms > b.ms; });
    if (reread && !slow.empty()) {
        std::vector<IoRequest> again;
        for (std::size_t i = 0; i < slow.size() && i < max_slow_rereads; ++i)
            again.push_back({ slow[i].offset, slow[i].length, false });
        const auto done = read_each(ctx, std::move(again), "re-reads of slow reads");
        for (std::size_t i = 0; i < done.size(); ++i)
            slow[i].again_ms = done[i].error ? -1 : static_cast<double>(done[i].latency_ns()) / 1e6;
    }
    std::sort(slow.begin(), slow.end(), [](const SlowRead& a, const SlowRead& b) { return a.offset < b.offset; });
    return slow;
}

namespace {

constexpr double slow_floor_rotating_ms = 20;
constexpr double slow_floor_solid_ms = 5;
constexpr double slow_median_factor = 10;

} // namespace

void add_bad_series(BenchmarkContext& ctx, const std::vector<BadRange>& bad)
{
    if (bad.empty())
        return;
    const std::size_t ranges = ctx.recorder.add_series({ "bad", "B", "B", SeriesStyle::Scatter });
    const std::size_t errors = ctx.recorder.add_series({ "bad_errno", "B", "", SeriesStyle::Scatter });
    for (const BadRange& range : bad) {
        ctx.recorder.add_point(ranges, { static_cast<double>(range.offset), static_cast<double>(range.length) });
        ctx.recorder.add_point(errors, { static_cast<double>(range.offset), static_cast<double>(range.error) });
    }
}

void add_slow_series(BenchmarkContext& ctx, const std::vector<SlowRead>& slow)
{
    if (slow.empty())
        return;
    const bool any_again = std::any_of(slow.begin(), slow.end(), [](const SlowRead& r) { return r.again_ms >= 0; });
    const std::size_t slow_series = ctx.recorder.add_series({ "slow", "B", "ms", SeriesStyle::Scatter });
    const std::size_t again_series
        = any_again ? ctx.recorder.add_series({ "slow_again", "B", "ms", SeriesStyle::Scatter }) : 0;
    for (const SlowRead& read : slow) {
        ctx.recorder.add_point(slow_series, { static_cast<double>(read.offset), read.ms });
        if (read.again_ms >= 0)
            ctx.recorder.add_point(again_series, { static_cast<double>(read.offset), read.again_ms });
    }
}

FaultLimits fault_limits(const BenchmarkContext& ctx, bool rotating)
{
    FaultLimits limits;
    limits.span = ctx.target.size;
    limits.logical_block = ctx.target.logical_block;
    limits.max_bad_ranges = ctx.params.unsigned_value("max_bad_ranges");
    limits.max_bad_percent = ctx.params.real("max_bad_percent");
    limits.reread_limit = ctx.params.unsigned_value("reread_limit");
    const double given_ms = ctx.params.real("slow_ms");
    limits.slow_floor_ms = given_ms > 0 ? given_ms : rotating ? slow_floor_rotating_ms : slow_floor_solid_ms;
    return limits;
}

double slow_threshold_ms(const BenchmarkContext& ctx, const LatencyHistogram& latency, bool rotating)
{
    const double given_ms = ctx.params.real("slow_ms");
    if (given_ms > 0)
        return given_ms;
    const double median_ms = static_cast<double>(latency.percentile(0.5)) / 1e6;
    return std::max(slow_median_factor * median_ms, rotating ? slow_floor_rotating_ms : slow_floor_solid_ms);
}

bool target_rotates(const Target& target)
{
    struct stat facts {};
    if (!target.is_block_device || ::fstat(target.fd.get(), &facts) != 0)
        return false;
    const storage::Sysfs sysfs;
    const auto directory = sysfs.block_directory(facts.st_rdev);
    return directory && storage::rotational(*directory);
}

} // namespace diskbench::engine::benchmarks
