// SPDX-License-Identifier: GPL-3.0-or-later
// "Steady state": what an SSD does once it is full and has been in use,
// not fresh out of the box. After SNIA's Solid State Storage Performance
// Test Specification (PTS 2.0.2): an optional purge (purge.hpp), then
// workload-independent preconditioning (sequential 128 KiB writes over the
// range, twice its size unless a set amount is asked), drawn live, then
// rounds of random writes (optionally a read/write mix, or reads) at a
// chosen depth until the last five rounds' IOPS hold SNIA's window
// (steady_state_analysis.hpp: within ±10 % of their mean, the fitted line
// changing by at most 10 %) or the round limit is reached. Each round keeps
// its queue full and ends with one fdatasync inside its time (fio's
// end_fsync=1). Destroy only: it writes the range over and over.
#include "../base/errors.hpp"
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/steady_state.hpp"
#include "device_write_support.hpp"
#include "file_support.hpp"
#include "purge.hpp"
#include "steady_state_analysis.hpp"
#include "test_writes.hpp"
#include "timed_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;
namespace steady_keys = contract::kinds::keys::steady_state;

namespace {

// SNIA's workload-independent preconditioning request.
constexpr std::uint32_t precondition_block = 128 * 1024;
// Seconds per point of the preconditioning's MB/s line.
constexpr double precondition_window_s = 0.5;
// The share of the progress bar the preconditioning fills (the rest: the
// rounds, at most max_rounds of them).
constexpr double precondition_share = 0.5;

struct Settings {
    std::uint64_t range = 0;        // bytes from offset 0 that are written
    std::uint64_t precondition = 0; // bytes of sequential writes
    std::uint32_t block = 0;
    unsigned queue_depth = 1;
    unsigned read_percent = 0;
    std::uint64_t round_ns = 0;
    std::uint64_t max_rounds = 0;
    std::uint64_t seed = 0;
};

Settings checked_settings(BenchmarkContext& ctx)
{
    Settings s;
    s.block = checked_block_size(ctx, "block_size");
    const std::uint64_t granule = std::max<std::uint64_t>(precondition_block, s.block);
    s.range = ctx.params.unsigned_value("size");
    if (s.range == 0)
        s.range = ctx.target.size - ctx.target.size % granule;
    else if (s.range > ctx.target.size)
        throw ParameterError("size", Failure { "error-larger-than-device",
                                               { { "size", format_bytes(s.range) },
                                                 { "device_size", format_bytes(ctx.target.size) } } });
    if (s.range % ctx.target.logical_block != 0 || s.range < granule)
        throw ParameterError("size", Failure { "error-size-not-whole-blocks",
                                               { { "logical_block", ctx.target.logical_block },
                                                 { "block", format_bytes(granule) } } });
    s.precondition = ctx.params.unsigned_value("precondition_bytes");
    // A set amount is for a drive too large to write twice: at most the
    // device (more than SNIA's twice the range is never needed, and a typo
    // of a zero too many would write for days).
    if (s.precondition > ctx.target.size)
        throw ParameterError("precondition_bytes", Failure { "error-larger-than-device",
                                                             { { "size", format_bytes(s.precondition) },
                                                               { "device_size", format_bytes(ctx.target.size) } } });
    if (s.precondition % ctx.target.logical_block != 0)
        throw ParameterError("precondition_bytes", Failure { "error-not-logical-block-multiple",
                                                             { { "value", s.precondition },
                                                               { "logical_block", ctx.target.logical_block } } });
    if (s.precondition == 0)
        s.precondition = 2 * s.range;
    s.queue_depth = static_cast<unsigned>(ctx.params.unsigned_value("queue_depth"));
    check_in_flight("queue_depth", 1, s.queue_depth, std::max(precondition_block, s.block));
    s.read_percent = static_cast<unsigned>(ctx.params.unsigned_value("read_percent"));
    s.round_ns = seconds_to_ns(ctx.params.real("round_s"));
    s.max_rounds = ctx.params.unsigned_value("max_rounds");
    s.seed = ctx.params.unsigned_value("seed");
    return s;
}

void record_purge(BenchmarkContext& ctx, const Settings& s)
{
    const DiscardFacts facts = discard_facts(ctx.target);
    ValueMap& summary = ctx.result.summary;
    value_at(summary, steady_keys::discard_max_bytes) = facts.max_bytes;
    value_at(summary, steady_keys::discard_granularity) = facts.granularity;
    PurgeOutcome outcome;
    if (ctx.params.boolean("purge")) {
        outcome = purge(ctx.target, facts, s.range);
        if (!outcome.purged && outcome.refused_errno != 0)
            ctx.recorder.note({ "steady-state-purge-refused", { { "reason", std::string(std::strerror(outcome.refused_errno)) } } });
        else if (!outcome.purged)
            ctx.recorder.note({ "steady-state-purge-unsupported", {} });
    }
    value_at(summary, steady_keys::purged) = outcome.purged;
    value_at(summary, steady_keys::purge_method) = outcome.method;
    value_at(summary, steady_keys::purge_seconds) = outcome.seconds;
}

// Sequential writes over the range, pass after pass, until s.precondition
// bytes are written; MB/s per half second as a live line. False when cancelled.
bool precondition(BenchmarkContext& ctx, const Settings& s, std::uint64_t& syncs)
{
    const std::size_t series = ctx.recorder.add_series({ "precondition", "s", "MB/s", SeriesStyle::Line });
    const auto window_ns = static_cast<std::uint64_t>(precondition_window_s * 1e9);
    std::uint64_t start_ns = 0;
    std::uint64_t window_start_ns = 0;
    std::uint64_t window_bytes = 0;
    std::uint64_t done = 0;
    ObserverFunction observer([&](unsigned, const IoCompletion& c) {
        if (start_ns == 0)
            start_ns = window_start_ns = c.submitted_ns;
        window_bytes += c.request.length;
        done += c.request.length;
        if (c.completed_ns - window_start_ns >= window_ns) {
            ctx.recorder.add_point(series, { static_cast<double>(c.completed_ns - start_ns) / 1e9,
                                             mb_per_s(window_bytes, c.completed_ns - window_start_ns) });
            window_bytes = 0;
            window_start_ns = c.completed_ns;
        }
        ctx.recorder.set_progress(precondition_share * static_cast<double>(done) / static_cast<double>(s.precondition));
    });
    std::uint64_t left = s.precondition;
    while (left > 0) {
        const std::uint64_t pass = std::min(left, s.range);
        IoRunSpec spec;
        spec.direction = IoDirection::Write;
        spec.data_seed = s.seed ^ 0x505245434f4e4449ULL; // "PRECONDI": not the rounds' data
        spec.queue_depth = s.queue_depth;
        spec.max_request_bytes = precondition_block;
        spec.make_source = [&](unsigned) { return std::make_unique<SequentialSource>(0, pass, precondition_block, false); };
        spec.observer = &observer;
        spec.cancel = &ctx.cancel;
        spec.phase = "preconditioning";
        const IoRunStats stats = ctx.io.run(ctx.target, spec);
        if (stats.cancelled)
            return false;
        left -= pass;
    }
    // Flushed before the rounds start, and inside its own time.
    sync_data(ctx.target);
    ++syncs;
    const std::uint64_t end_ns = monotonic_ns();
    if (window_bytes > 0 && start_ns != 0)
        ctx.recorder.add_point(series, { static_cast<double>(end_ns - start_ns) / 1e9,
                                         mb_per_s(window_bytes, end_ns - window_start_ns) });
    ValueMap& summary = ctx.result.summary;
    value_at(summary, steady_keys::precondition_bytes) = done;
    value_at(summary, steady_keys::precondition_seconds) = start_ns ? static_cast<double>(end_ns - start_ns) / 1e9 : 0.0;
    value_at(summary, steady_keys::precondition_mb_s) = start_ns ? mb_per_s(done, end_ns - start_ns) : 0.0;
    return true;
}

struct Round {
    double iops = 0;
    double mb_s = 0;
    LatencyHistogram latency;
};

// One round of random requests at the chosen depth for round_s.
Round run_round(BenchmarkContext& ctx, const Settings& s, std::uint64_t number, std::uint64_t& syncs, bool& cancelled)
{
    TimedRunPlan plan;
    plan.test = ProfileTest { true, s.block, s.queue_depth, 1 };
    plan.region = s.range;
    plan.duration_ns = s.round_ns;
    plan.seed = s.seed + number;
    plan.progress_before = precondition_share + (1 - precondition_share) * static_cast<double>(number - 1)
        / static_cast<double>(s.max_rounds);
    plan.progress_share = (1 - precondition_share) / static_cast<double>(s.max_rounds);
    plan.data_seed = s.seed + number;
    IoRunStats stats;
    if (s.read_percent == 100) {
        stats = timed_run(ctx, plan);
    } else {
        plan.direction = s.read_percent == 0 ? IoDirection::Write : IoDirection::Mixed;
        plan.mix_read_percent = s.read_percent;
        stats = destroyed_test_writes(ctx, plan, syncs);
    }
    cancelled = stats.cancelled;
    return { stats.iops(), stats.megabytes_per_second(), stats.latency };
}

void run(BenchmarkContext& ctx)
{
    checked_write_mode(ctx, false);
    checked_sync_plan(ctx, WriteMode::Destroy);
    const Settings s = checked_settings(ctx);
    ValueMap& summary = ctx.result.summary;
    value_at(summary, common_keys::written_range_bytes) = s.range;
    value_at(summary, steady_keys::read_percent) = std::uint64_t { s.read_percent };
    if (ctx.plan_only)
        return;

    std::uint64_t syncs = 0;
    {
        // The purge erases before any I/O run asks the resource budget:
        // ask it first (as the preconditioning will), so that a run the
        // budget refuses has touched nothing.
        const auto room = ctx.io.reserve(1, std::uint64_t { s.queue_depth } * precondition_block);
        record_purge(ctx, s);
    }
    if (!precondition(ctx, s, syncs)) {
        count_syncs(ctx, syncs);
        return;
    }

    const std::size_t iops_series = ctx.recorder.add_series({ "iops", "round", "IOPS", SeriesStyle::Line });
    const std::size_t p99_series = ctx.recorder.add_series({ "latency_p99", "round", "us", SeriesStyle::Line });
    const SteadyStateCriteria criteria;
    std::vector<Round> rounds;
    std::vector<double> iops;
    SteadyWindow window;
    for (std::uint64_t number = 1; number <= s.max_rounds; ++number) {
        bool cancelled = false;
        Round round = run_round(ctx, s, number, syncs, cancelled);
        if (cancelled)
            break;
        const auto x = static_cast<double>(number);
        ctx.recorder.add_point(iops_series, { x, round.iops });
        ctx.recorder.add_point(p99_series, { x, to_us(round.latency.percentile(0.99)) });
        iops.push_back(round.iops);
        rounds.push_back(std::move(round));
        window = measure_window(iops, criteria);
        if (window.steady)
            break;
    }
    count_syncs(ctx, syncs);
    value_at(summary, steady_keys::rounds) = static_cast<std::uint64_t>(rounds.size());
    if (rounds.empty())
        return;
    value_at(summary, steady_keys::fresh_iops) = rounds.front().iops;
    value_at(summary, steady_keys::fresh_mb_s) = rounds.front().mb_s;
    value_at(summary, steady_keys::steady_state) = window.steady;
    if (!window.measured) {
        if (!ctx.cancel.cancelled())
            ctx.recorder.note({ "steady-state-too-few-rounds",
                                { { "rounds", static_cast<std::uint64_t>(rounds.size()) },
                                  { "window", static_cast<std::uint64_t>(criteria.windows) } } });
        return;
    }
    // The window: the last rounds, drawn as the band of ±tolerance around
    // their mean (the lines SNIA's report draws over its rounds plot).
    const std::size_t first = rounds.size() - criteria.windows;
    LatencyHistogram latency;
    double mb_s = 0;
    for (std::size_t i = first; i < rounds.size(); ++i) {
        latency.merge(rounds[i].latency);
        mb_s += rounds[i].mb_s;
    }
    const std::size_t low = ctx.recorder.add_series({ "iops-min", "round", "IOPS", SeriesStyle::Line });
    const std::size_t high = ctx.recorder.add_series({ "iops-max", "round", "IOPS", SeriesStyle::Line });
    for (std::size_t i = first; i < rounds.size(); ++i) {
        const auto x = static_cast<double>(i + 1);
        ctx.recorder.add_point(low, { x, window.mean * (1 - criteria.tolerance) });
        ctx.recorder.add_point(high, { x, window.mean * (1 + criteria.tolerance) });
    }
    value_at(summary, steady_keys::steady_first_round) = static_cast<std::uint64_t>(first + 1);
    value_at(summary, steady_keys::steady_window_rounds) = static_cast<std::uint64_t>(criteria.windows);
    value_at(summary, steady_keys::steady_iops) = window.mean;
    value_at(summary, steady_keys::steady_mb_s) = mb_s / static_cast<double>(criteria.windows);
    value_at(summary, steady_keys::window_excursion_percent) = window.excursion * 100;
    value_at(summary, steady_keys::window_slope_percent) = window.slope * 100;
    add_latency_summary(summary, latency);
    if (!window.steady && !ctx.cancel.cancelled())
        ctx.recorder.note({ "steady-state-not-reached",
                            { { "rounds", static_cast<std::uint64_t>(rounds.size()) },
                              { "window", static_cast<std::uint64_t>(criteria.windows) },
                              { "excursion", window.excursion * 100 },
                              { "slope", window.slope * 100 } } });
}

} // namespace

BenchmarkInfo steady_state()
{
    BenchmarkInfo info {
        "steady-state",
        "Steady state",
        "Destroys data: SNIA's steady-state test. Discards `size` bytes from the start of the device (purge, "
        "where it takes discards), writes them sequentially in 128 KiB writes twice over (or precondition_bytes), "
        "then runs rounds of round_s of random writes of block_size at queue_depth (read_percent of them reads) "
        "until the last 5 rounds' IOPS stay within ±10 % of their mean with a slope of at most 10 %, or "
        "max_rounds. Reports the first round's IOPS (fresh) beside the steady ones. Needs mode=destroy and confirm.",
        with_common_params(write_mode_params({
            bool_param("purge", "Discard the range first (BLKDISCARD where the device takes discards), so the "
                                "drive starts as fresh out of the box.",
                       true),
            unsigned_param("size", "Bytes from the start of the device to precondition and write; 0: the whole "
                                   "device.",
                           0, 0, 1ULL << 60),
            unsigned_param("precondition_bytes", "Bytes of sequential 128 KiB writes before the rounds, round and "
                                                 "round the range; 0: twice the range (SNIA's). At most the "
                                                 "device's size.",
                           0, 0, 1ULL << 60),
            unsigned_param("block_size", "Bytes per request of the rounds; 0 means the logical block size.", 4096,
                           0, max_request_size),
            unsigned_param("queue_depth", "Requests in flight, in the preconditioning and the rounds.", 32, 1, 1024),
            unsigned_param("read_percent", "Percent of the rounds' requests that read: 0 writes only, 70 is the "
                                           "70/30 mix, 100 reads only.",
                           0, 0, 100),
            real_param("round_s", "Seconds per round.", 10.0, 0.05, 3600),
            unsigned_param("max_rounds", "Stop after this many rounds when steady state is not reached.", 25, 1,
                           1000),
        }, false), Seeded::No),
        run,
    };
    info.params.push_back(data_seed_param());
    info.writes_device = true;
    return info;
}

} // namespace diskbench::engine::benchmarks
