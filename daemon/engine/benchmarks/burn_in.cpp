// SPDX-License-Identifier: GPL-3.0-or-later
// Burn-in: before a lab trusts a drive with data, every block written and
// read back. What `badblocks -wsv` does, with what it lacks: each sector
// carries its own offset and the cycle's key (burn_in_pattern.hpp), so a
// write that was lost and one that landed elsewhere are both caught and
// told apart; the writes and the reads go at full queue depth; both are
// drawn as speed against position with a min/max envelope; unreadable
// blocks are narrowed to the logical block and slow ones re-read, as in
// the surface scan (surface_faults.hpp); 64-bit offsets throughout, so a
// 16 TiB drive is one more number, not a 32-bit block limit.
//
// A cycle: every block written in order (one fdatasync at the end, inside
// the write's timing), then every block read back with O_DIRECT and
// compared. More cycles take new keys, and with `second_pattern` every
// other cycle writes the filler's inverse, so each bit is written both
// ways (`cycles`, not `passes`: that is every kind's repetition with
// medians, passes.hpp, and a burn-in's cycles add up instead). Destroy
// only. The health snapshots, the verdict against the drive's siblings and
// the certificate are the daemon's and the clients' (this kind reports the
// blocks).
#include "../base/clock.hpp"
#include "../base/errors.hpp"
#include "../io/request_sources.hpp"
#include "../results/latency_histogram.hpp"
#include "benchmarks.hpp"
#include "burn_in_pattern.hpp"
#include "contract/kinds/bucket_layout.hpp"
#include "contract/kinds/burn_in.hpp"
#include "contract/kinds/common_keys.hpp"
#include "device_write_support.hpp"
#include "file_support.hpp"
#include "surface_faults.hpp"

#include <algorithm>
#include <atomic>
#include <random>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace burn_in_keys = contract::kinds::keys::burn_in;
namespace common_keys = contract::kinds::keys::common;

namespace {

using contract::BucketLayout;

constexpr std::uint64_t partial_interval_ns = 200'000'000;
constexpr std::size_t max_kept = 10'000; // mismatched blocks and write errors kept in the result

// Speed against position for one cycle's writes or reads. The device is cut
// into buckets; each gets its mean (its bytes over the time from the end
// of the bucket before to its last completion) and the slowest and fastest
// of the windows that ended in it. A window is at least queue_depth
// completions and kMinWindowNs, so its rate is bytes over the time they
// took to come back: at a deep queue one request's latency is mostly
// waiting behind the others, and completions are reaped in batches, so
// one request's time says nothing of the speed there. A bucket shorter
// than kMinSpanNs (a small or very fast device: a block a bucket) is
// joined to the next, at the first one's place, for the same reason.
// Called from one worker's completions, in order.
class PositionEnvelope {
public:
    static constexpr std::uint64_t kMinWindowNs = 2'000'000;
    static constexpr std::uint64_t kMinSpanNs = 10'000'000;

    PositionEnvelope(BenchmarkContext& ctx, std::string_view prefix, const BucketLayout& layout, std::uint32_t block,
                     unsigned window)
        : ctx_(ctx), layout_(layout), block_(block), window_(std::max(1u, window))
    {
        const auto series = [&](std::string_view what) {
            return ctx.recorder.add_series({ fmt::format("{}_{}", prefix, what), "B", "MB/s", SeriesStyle::Line });
        };
        const auto partial = [&](std::string_view what) {
            return ctx.recorder.add_series(
                { partial_series_name(fmt::format("{}_{}", prefix, what)), "B", "MB/s", SeriesStyle::Line });
        };
        mean_ = series("mean");
        min_ = series("min");
        max_ = series("max");
        mean_partial_ = partial("mean");
        min_partial_ = partial("min");
        max_partial_ = partial("max");
    }

    void completed(const IoCompletion& c)
    {
        // The clock starts with the first request, not with the run's
        // setup (its ring, buffers and threads).
        if (!started_) {
            window_start_ns_ = span_start_ns_ = last_partial_ns_ = last_ns_ = c.submitted_ns;
            started_ = true;
        }
        const std::uint64_t index = layout_.bucket_of(c.request.offset / block_);
        if (has_span_ && index != span_bucket_ && last_ns_ - span_start_ns_ >= kMinSpanNs)
            close_span();
        if (!has_span_) {
            span_bucket_ = index;
            has_span_ = true;
        }
        last_ns_ = std::max(last_ns_, c.completed_ns);
        if (!c.error) {
            window_bytes_ += c.request.length;
            span_bytes_ += c.request.length;
        }
        if (++window_count_ >= window_ && last_ns_ - window_start_ns_ >= kMinWindowNs)
            close_window();
        if (last_ns_ - last_partial_ns_ >= partial_interval_ns && last_ns_ > span_start_ns_) {
            const double x = x_of(span_bucket_);
            ctx_.recorder.add_point(mean_partial_, { x, mb_per_s(span_bytes_, last_ns_ - span_start_ns_) });
            if (windows_ > 0) {
                ctx_.recorder.add_point(min_partial_, { x, slowest_window_ });
                ctx_.recorder.add_point(max_partial_, { x, fastest_window_ });
            }
            last_partial_ns_ = last_ns_;
        }
    }

    void finish()
    {
        if (has_span_)
            close_span();
    }

    [[nodiscard]] double slowest() const noexcept { return slowest_; }
    [[nodiscard]] double fastest() const noexcept { return fastest_; }

private:
    [[nodiscard]] double x_of(std::uint64_t bucket) const
    {
        return static_cast<double>(layout_.first_block(bucket)) * block_;
    }

    void close_window()
    {
        const double rate = mb_per_s(window_bytes_, last_ns_ - window_start_ns_);
        slowest_window_ = windows_ == 0 ? rate : std::min(slowest_window_, rate);
        fastest_window_ = std::max(fastest_window_, rate);
        ++windows_;
        window_start_ns_ = last_ns_;
        window_bytes_ = 0;
        window_count_ = 0;
    }

    void close_span()
    {
        const double x = x_of(span_bucket_);
        const double mean = last_ns_ > span_start_ns_ ? mb_per_s(span_bytes_, last_ns_ - span_start_ns_) : 0.0;
        // No window ended here (a span shorter than a window): its mean
        // is its envelope.
        const double low = windows_ > 0 ? std::min(slowest_window_, mean) : mean;
        const double high = windows_ > 0 ? std::max(fastest_window_, mean) : mean;
        ctx_.recorder.add_point(mean_, { x, mean });
        ctx_.recorder.add_point(min_, { x, low });
        ctx_.recorder.add_point(max_, { x, high });
        slowest_ = any_ ? std::min(slowest_, low) : low;
        fastest_ = std::max(fastest_, high);
        any_ = true;
        has_span_ = false;
        span_start_ns_ = last_ns_;
        span_bytes_ = 0;
        windows_ = 0;
        slowest_window_ = fastest_window_ = 0;
    }

    BenchmarkContext& ctx_;
    const BucketLayout& layout_;
    std::uint32_t block_;
    unsigned window_;
    std::size_t mean_ = 0, min_ = 0, max_ = 0, mean_partial_ = 0, min_partial_ = 0, max_partial_ = 0;
    std::uint64_t span_bucket_ = 0;
    bool started_ = false, has_span_ = false, any_ = false;
    std::uint64_t span_start_ns_ = 0, span_bytes_ = 0;
    std::uint64_t window_start_ns_ = 0, window_bytes_ = 0, window_count_ = 0, windows_ = 0;
    std::uint64_t last_ns_ = 0, last_partial_ns_ = 0;
    double slowest_window_ = 0, fastest_window_ = 0;
    double slowest_ = 0, fastest_ = 0;
};

// A block that read back other than it was written.
struct Mismatch {
    std::uint64_t offset = 0;
    std::uint32_t sectors = 0;        // of the block's, not as written
    std::uint64_t first_lost = 0;     // the first such sector's offset
    std::optional<std::uint64_t> holds; // what that sector holds when it is our write of another offset
    unsigned cycle = 0;
};

// What every cycle found, over the whole run.
struct Findings {
    std::uint64_t mismatched_blocks = 0;
    std::uint64_t mismatched_sectors = 0;
    std::uint64_t misplaced_blocks = 0; // the first wrong sector holds our write of another offset
    std::vector<Mismatch> mismatches;    // the first max_kept
    std::uint64_t write_errors = 0;
    std::vector<BadRange> failed_writes; // the first max_kept
    std::uint64_t write_bytes = 0, write_ns = 0, read_bytes = 0, read_ns = 0;
    double write_min = 0, write_max = 0, read_min = 0, read_max = 0;
    bool any_write = false, any_read = false;
    LatencyHistogram read_latency;
};

class BurnInRun {
public:
    BurnInRun(BenchmarkContext& ctx, std::uint32_t block, unsigned depth, const BucketLayout& layout,
              FaultLimits limits)
        : ctx_(ctx), block_(block), depth_(depth), layout_(layout), faults_(limits), limits_(limits)
    {
    }

    // Returns false when cancelled or stopped by too many failures.
    bool cycle(unsigned number, const BurnInPattern& pattern, double done_before, double share)
    {
        if (!write_all(number, pattern, done_before, share / 2))
            return false;
        return read_all(number, pattern, done_before + share / 2, share / 2) && !stopped_;
    }

    [[nodiscard]] Findings& findings() noexcept { return findings_; }
    [[nodiscard]] const FaultLog& faults() const noexcept { return faults_; }
    // Why the run stopped by itself: the fault log's reason for reads,
    // "max-bad-writes" for writes; "" when it did not.
    [[nodiscard]] std::string stop_reason() const
    {
        return stopped_by_writes_ ? std::string("max-bad-writes") : faults_.stop_reason();
    }

private:
    IoRunSpec spec(IoDirection direction, const std::atomic<bool>& stop, std::string phase)
    {
        IoRunSpec run;
        run.direction = direction;
        run.queue_depth = depth_;
        run.max_request_bytes = block_;
        run.tolerate_read_errors = true;
        run.tolerate_write_errors = true;
        run.phase = std::move(phase);
        run.cancel = &ctx_.cancel;
        const std::uint64_t size = ctx_.target.size;
        run.make_source = [size, this, &stop](unsigned) {
            return std::make_unique<StoppableSource>(0, size, block_, stop);
        };
        return run;
    }

    bool write_all(unsigned number, const BurnInPattern& pattern, double done_before, double share)
    {
        const std::uint64_t size = ctx_.target.size;
        std::atomic<bool> stop { false };
        PositionEnvelope envelope(ctx_, fmt::format("write{}", number), layout_, block_, depth_);
        std::uint64_t done = 0;
        ObserverFunction observer([&](unsigned, const IoCompletion& c) {
            if (c.error) {
                ++findings_.write_errors;
                if (findings_.failed_writes.size() < max_kept)
                    findings_.failed_writes.push_back({ c.request.offset, c.request.length, c.error, true });
                // A drive that fails every write is not written for hours.
                if (findings_.write_errors > limits_.max_bad_ranges) {
                    stop = stopped_ = true;
                    stopped_by_writes_ = true;
                }
            }
            envelope.completed(c);
            done += c.request.length;
            ctx_.recorder.set_progress(done_before + share * static_cast<double>(done) / static_cast<double>(size));
        });
        IoRunSpec run = spec(IoDirection::Write, stop, fmt::format("cycle {} writes", number));
        run.pattern = &pattern;
        run.observer = &observer;
        const IoRunStats stats = ctx_.io.run(ctx_.target, run);
        envelope.finish();
        if (stats.cancelled)
            return false;
        // Inside the write's time, as fio's end_fsync=1: what the drive
        // acknowledged is on its medium before anything is read back.
        sync_data(ctx_.target);
        findings_.write_bytes += stats.bytes;
        findings_.write_ns += monotonic_ns() - stats.started_ns;
        merge_extremes(findings_.write_min, findings_.write_max, findings_.any_write, envelope);
        return !stopped_;
    }

    bool read_all(unsigned number, const BurnInPattern& pattern, double done_before, double share)
    {
        const std::uint64_t size = ctx_.target.size;
        std::atomic<bool> stop { false };
        PositionEnvelope envelope(ctx_, fmt::format("read{}", number), layout_, block_, depth_);
        std::vector<IoCompletion> failed;
        std::uint64_t done = 0;
        ObserverFunction observer([&](unsigned, const IoCompletion& c) {
            if (c.error) {
                failed.push_back(c);
                if (failed.size() > limits_.max_bad_ranges)
                    stop = stopped_ = true;
            } else {
                faults_.add_read(c);
                if (const ProbeCheck check = pattern.check(c.data, c.request); !check.intact())
                    found_mismatch(number, c.request, check);
            }
            envelope.completed(c);
            done += c.request.length;
            ctx_.recorder.set_progress(done_before + share * static_cast<double>(done) / static_cast<double>(size));
        });
        IoRunSpec run = spec(IoDirection::Read, stop, fmt::format("cycle {} reads", number));
        run.observer = &observer;
        const IoRunStats stats = ctx_.io.run(ctx_.target, run);
        envelope.finish();
        findings_.read_bytes += stats.bytes;
        findings_.read_ns += stats.finished_ns > stats.started_ns ? stats.finished_ns - stats.started_ns : 0;
        findings_.read_latency.merge(stats.latency);
        merge_extremes(findings_.read_min, findings_.read_max, findings_.any_read, envelope);
        // Each failed read narrowed to its bad blocks, as the surface scan
        // does; a cancel keeps the rest whole.
        for (const IoCompletion& c : failed) {
            if (!faults_.add_bad(narrow_failed_read(ctx_, c.request, c.error, limits_)))
                stopped_ = true;
            if (stopped_ || ctx_.cancel.cancelled())
                break;
        }
        return !stats.cancelled && !ctx_.cancel.cancelled();
    }

    void found_mismatch(unsigned number, const IoRequest& request, const ProbeCheck& check)
    {
        ++findings_.mismatched_blocks;
        const std::uint32_t lost = check.sectors - check.intact_sectors;
        findings_.mismatched_sectors += lost;
        if (check.first_lost_holds)
            ++findings_.misplaced_blocks;
        if (findings_.mismatches.size() < max_kept)
            findings_.mismatches.push_back({ request.offset, lost, check.first_lost.value_or(request.offset),
                                             check.first_lost_holds, number });
    }

    static void merge_extremes(double& low, double& high, bool& any, const PositionEnvelope& envelope)
    {
        low = any ? std::min(low, envelope.slowest()) : envelope.slowest();
        high = std::max(high, envelope.fastest());
        any = true;
    }

    BenchmarkContext& ctx_;
    std::uint32_t block_;
    unsigned depth_;
    const BucketLayout& layout_;
    FaultLog faults_;
    FaultLimits limits_;
    Findings findings_;
    bool stopped_ = false;
    bool stopped_by_writes_ = false;
};

// The run's findings as summary, series and messages, and its verdict:
// pass only when every block was written and read back as written, none
// was unreadable and no slow block was slow again when re-read.
void record(BenchmarkContext& ctx, BurnInRun& run, unsigned cycles_done, bool rotating)
{
    ValueMap& summary = ctx.result.summary;
    const Findings& f = run.findings();
    const FaultLog& faults = run.faults();
    const std::uint64_t sector = ctx.target.logical_block;
    value_at(summary, burn_in_keys::cycles_done) = static_cast<std::uint64_t>(cycles_done);
    value_at(summary, burn_in_keys::written_bytes) = f.write_bytes;
    value_at(summary, burn_in_keys::verified_bytes) = f.read_bytes;
    value_at(summary, burn_in_keys::write_mb_s) = mb_per_s(f.write_bytes, f.write_ns);
    value_at(summary, burn_in_keys::write_min_mb_s) = f.write_min;
    value_at(summary, burn_in_keys::write_max_mb_s) = f.write_max;
    value_at(summary, burn_in_keys::read_mb_s) = mb_per_s(f.read_bytes, f.read_ns);
    value_at(summary, burn_in_keys::read_min_mb_s) = f.read_min;
    value_at(summary, burn_in_keys::read_max_mb_s) = f.read_max;
    add_latency_summary(summary, f.read_latency);

    std::vector<std::string> reasons;
    // Unreadable blocks, exact to the logical block.
    const std::vector<BadRange> bad = faults.bad_ranges();
    value_at(summary, burn_in_keys::unreadable_ranges) = faults.bad_range_count();
    value_at(summary, burn_in_keys::unreadable_bytes) = faults.bad_bytes();
    if (!bad.empty()) {
        reasons.emplace_back("unreadable");
        add_bad_series(ctx, bad);
        value_at(summary, burn_in_keys::first_unreadable_lba) = bad.front().offset / sector;
        ctx.recorder.warn({ "burn-in-unreadable", { { "ranges", faults.bad_range_count() },
                                                    { "bytes", format_bytes(faults.bad_bytes()) },
                                                    { "first_lba", bad.front().offset / sector } } });
    }

    // Blocks that came back other than written, located to the sector.
    value_at(summary, burn_in_keys::mismatched_blocks) = f.mismatched_blocks;
    value_at(summary, burn_in_keys::mismatched_bytes) = f.mismatched_sectors * stamp_unit;
    value_at(summary, burn_in_keys::misplaced_blocks) = f.misplaced_blocks;
    if (!f.mismatches.empty()) {
        reasons.emplace_back("mismatched");
        const std::size_t series = ctx.recorder.add_series({ "mismatch", "B", "B", SeriesStyle::Scatter });
        for (const Mismatch& m : f.mismatches)
            ctx.recorder.add_point(series, { static_cast<double>(m.offset),
                                             static_cast<double>(std::uint64_t { m.sectors } * stamp_unit) });
        const Mismatch& first = f.mismatches.front();
        value_at(summary, burn_in_keys::first_mismatch_offset) = first.first_lost;
        if (first.holds)
            value_at(summary, burn_in_keys::first_mismatch_holds_offset) = *first.holds;
        ctx.recorder.warn({ "burn-in-mismatch", { { "blocks", f.mismatched_blocks },
                                                  { "bytes", format_bytes(f.mismatched_sectors * stamp_unit) },
                                                  { "first", first.first_lost } } });
        if (first.holds)
            ctx.recorder.note({ "burn-in-misplaced", { { "at", first.first_lost }, { "holds", *first.holds } } });
    }

    value_at(summary, burn_in_keys::write_errors) = f.write_errors;
    if (f.write_errors > 0) {
        reasons.emplace_back("write-errors");
        const std::size_t series = ctx.recorder.add_series({ "write_error", "B", "", SeriesStyle::Scatter });
        for (const BadRange& w : f.failed_writes)
            ctx.recorder.add_point(series, { static_cast<double>(w.offset), static_cast<double>(w.error) });
        ctx.recorder.warn({ "burn-in-write-errors", { { "count", f.write_errors },
                                                      { "first", f.failed_writes.front().offset } } });
    }

    // Slow blocks: ten times the median read and at least the floor, each
    // read once more; only those slow again count against the drive.
    const double threshold_ms = slow_threshold_ms(ctx, f.read_latency, rotating);
    const bool reread = ctx.params.boolean("reread_slow");
    const std::vector<SlowRead> slow = judge_slow_reads(ctx, faults, threshold_ms, reread);
    std::uint64_t repeatable = 0;
    add_slow_series(ctx, slow);
    for (const SlowRead& read : slow) {
        // Not read again (reread_slow off, or past max_slow_rereads): it
        // counts, as nothing says it was a one-off.
        repeatable += read.again_ms < 0 || read.again_ms >= threshold_ms;
    }
    value_at(summary, burn_in_keys::slow_threshold_ms) = threshold_ms;
    value_at(summary, burn_in_keys::slow_blocks) = static_cast<std::uint64_t>(slow.size() + faults.slow_candidates_dropped());
    value_at(summary, burn_in_keys::slow_repeatable) = repeatable;
    if (repeatable > 0) {
        reasons.emplace_back("slow");
        ctx.recorder.warn({ "burn-in-slow", { { "count", repeatable }, { "threshold_ms", threshold_ms } } });
    }

    std::string joined;
    for (const std::string& reason : reasons)
        joined += (joined.empty() ? "" : ",") + reason;
    value_at(summary, burn_in_keys::verdict) = std::string(reasons.empty() ? "pass" : "fail");
    value_at(summary, burn_in_keys::verdict_reasons) = joined;
    if (reasons.empty())
        ctx.recorder.note({ "burn-in-passed", { { "bytes", format_bytes(f.read_bytes) },
                                                { "cycles", static_cast<std::uint64_t>(cycles_done) } } });
}

void run(BenchmarkContext& ctx)
{
    checked_write_mode(ctx, false);
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    if (block % stamp_unit != 0)
        throw ParameterError("block_size", Failure { "error-multiple-of-bytes", { { "bytes", stamp_unit } } });
    const auto depth = static_cast<unsigned>(ctx.params.unsigned_value("queue_depth"));
    const auto cycles = static_cast<unsigned>(ctx.params.unsigned_value("cycles"));
    const bool second_pattern = ctx.params.boolean("second_pattern");
    const std::uint64_t size = ctx.target.size;
    ValueMap& summary = ctx.result.summary;
    value_at(summary, burn_in_keys::bytes) = size;
    value_at(summary, burn_in_keys::cycles) = static_cast<std::uint64_t>(cycles);
    value_at(summary, common_keys::written_range_bytes) = size;
    if (ctx.plan_only)
        return;

    const bool rotating = target_rotates(ctx.target);
    const BucketLayout layout((size + block - 1) / block, ctx.params.unsigned_value("buckets"));
    BurnInRun burn(ctx, block, depth, layout, fault_limits(ctx, rotating));
    // A key drawn for the run: old data, even another burn-in's, never
    // passes for this one's.
    const std::uint64_t key = std::random_device {}() | static_cast<std::uint64_t>(std::random_device {}()) << 32;
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    const std::uint64_t started_ns = monotonic_ns();
    unsigned done = 0;
    for (unsigned cycle = 1; cycle <= cycles; ++cycle) {
        const BurnInPattern pattern(block, seed, key + cycle, second_pattern && cycle % 2 == 0);
        const double share = 1.0 / cycles;
        const bool went_on = burn.cycle(cycle, pattern, share * (cycle - 1), share);
        if (!ctx.cancel.cancelled())
            done = cycle;
        if (!went_on)
            break;
    }
    if (ctx.cancel.cancelled())
        return;
    if (const std::string reason = burn.stop_reason(); !reason.empty())
        value_at(summary, burn_in_keys::stopped_reason) = reason;
    record(ctx, burn, done, rotating);
    value_at(summary, burn_in_keys::seconds) = static_cast<double>(monotonic_ns() - started_ns) / 1e9;
    ctx.recorder.set_progress(1.0);
}

} // namespace

BenchmarkInfo burn_in()
{
    BenchmarkInfo info {
        "burn-in",
        "Burn-in",
        "Destroys data: writes every block of the device and reads it back, each 512-byte sector carrying its own "
        "offset and a key drawn for the run, so a write that was lost and one that landed elsewhere are both "
        "found, to the sector. Writes and reads at full queue depth, drawn as speed against position with a "
        "min/max envelope; unreadable blocks are narrowed to the logical block and slow ones read again, as in "
        "the surface scan. Needs mode=destroy and confirm.",
        with_common_params(write_mode_params({
            unsigned_param("block_size", "Bytes per write and read; 0 means the logical block size.", MiB, 0,
                           16 * MiB),
            unsigned_param("queue_depth", "Writes or reads in flight.", 32, 1, 256),
            unsigned_param("cycles", "Times every block is written and read back (badblocks' passes), each time "
                                     "with a new key.", 1, 1, 100),
            bool_param("second_pattern", "Every second cycle writes the inverse of the first's data, so each bit "
                                         "is written both ways.", false),
            unsigned_param("buckets", "Points along the device for each cycle's speed (memory stays bounded by "
                                      "this).", 1000, 1, 100'000),
            unsigned_param("max_bad_ranges", "Failed reads (or writes) after which the run stops by itself.", 1000, 1,
                           1'000'000),
            real_param("max_bad_percent", "Share of the device, in percent, whose reads may fail before the run "
                                          "stops by itself.", 1.0, 0.001, 100),
            unsigned_param("reread_limit", "Re-reads of one failed read while finding its exact bad blocks (0: "
                                           "keep the failed read whole).", 300, 0, 100'000),
            real_param("slow_ms", "A read at least this slow is a slow block; 0: ten times the run's median read, "
                                  "and at least 20 ms on a rotating disk, 5 ms otherwise.", 0, 0, 600'000),
            bool_param("reread_slow", "Read each slow block again: only one slow again counts against the drive.",
                       true),
        }, false), Seeded::No),
        run,
    };
    info.params.push_back(data_seed_param());
    info.writes_device = true;
    return info;
}

} // namespace diskbench::engine::benchmarks
