// SPDX-License-Identifier: GPL-3.0-or-later
// "Overview": GNOME Disks' benchmark, the first thing a user wants of a
// disk, in about a minute whatever its size: the transfer rate sampled at
// `samples` places spread over the whole device (10 MiB each, read with
// O_DIRECT in 1 MiB reads, one at a time, so each sample includes the seek
// to it as GNOME Disks' does); with `write`, the write rate at the same
// places in preserve mode (each sample read, then written back unchanged
// and synced, the write and its sync timed, as GNOME Disks' opt-in write
// benchmark does; the daemon starts such a run as a device write:
// BenchmarkInfo::writes_when); then the access time from `access_reads`
// single-block reads at seeded random places. Plotted as position against
// MB/s, with each access read's time at its place; the summary's
// headline is the average read (and write) rate and the mean access time.
#include "../base/errors.hpp"
#include "../benchmark_support.hpp"
#include "../io/request_sources.hpp"
#include "benchmarks.hpp"
#include "device_write_support.hpp"
#include "overview_samples.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/overview.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;
namespace overview_keys = contract::kinds::keys::overview;

namespace {

// The requests of one sample: `sample` bytes from `offset` in reads (or
// writes) of `block`, the last one shorter when the sample is not whole
// blocks.
std::vector<IoRequest> sample_requests(std::uint64_t offset, std::uint64_t sample, std::uint32_t block)
{
    std::vector<IoRequest> requests;
    for (std::uint64_t within = 0; within < sample; within += block)
        requests.push_back(
            { offset + within, static_cast<std::uint32_t>(std::min<std::uint64_t>(block, sample - within)) });
    return requests;
}

// The requests of every sample, in order.
class SampleSource final : public RequestSource {
public:
    SampleSource(const std::vector<std::uint64_t>& offsets, std::uint64_t sample, std::uint32_t block) noexcept
        : offsets_(offsets), sample_(sample), block_(block) {}
    bool next(IoRequest& request) override
    {
        if (within_ == current_.size()) {
            if (index_ >= offsets_.size())
                return false;
            current_ = sample_requests(offsets_[index_++], sample_, block_);
            within_ = 0;
        }
        request = current_[within_++];
        return true;
    }

private:
    const std::vector<std::uint64_t>& offsets_;
    std::uint64_t sample_;
    std::uint32_t block_;
    std::size_t index_ = 0;
    std::vector<IoRequest> current_;
    std::size_t within_ = 0;
};

// Where the summary has a direction's average, slowest and fastest sample
// (contract/kinds/overview.hpp).
struct RateKeys {
    std::string_view mean, min, max;
};
constexpr RateKeys read_rate_keys { overview_keys::read_mb_s, overview_keys::read_min_mb_s,
                                    overview_keys::read_max_mb_s };
constexpr RateKeys write_rate_keys { overview_keys::write_mb_s, overview_keys::write_min_mb_s,
                                     overview_keys::write_max_mb_s };

void summarise_rates(ValueMap& summary, const RateKeys& keys, const std::vector<double>& rates)
{
    if (rates.empty())
        return;
    double sum = 0;
    for (const double r : rates)
        sum += r;
    value_at(summary, keys.mean) = sum / static_cast<double>(rates.size());
    value_at(summary, keys.min) = *std::min_element(rates.begin(), rates.end());
    value_at(summary, keys.max) = *std::max_element(rates.begin(), rates.end());
}

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const std::uint32_t access_block = checked_block_size(ctx, "access_block_size");
    std::uint64_t sample = fitted_amount(ctx, "sample_size", ctx.target.size, block, "sample");
    sample -= sample % ctx.target.logical_block;
    if (sample < ctx.target.logical_block)
        throw ParameterError("sample_size", Failure { "error-sample-below-logical-block",
                                                      { { "logical_block", ctx.target.logical_block } } });
    const std::uint64_t count = ctx.params.unsigned_value("samples");
    const std::uint64_t access_reads = ctx.params.unsigned_value("access_reads");
    const bool write = ctx.params.boolean("write");
    // Each sample is kept in memory between its read and its write-back,
    // a buffer of `block` per request.
    if (write && std::uint64_t { block } * ((sample + block - 1) / block) > max_preserved_batch_bytes)
        throw ParameterError("sample_size", Failure { "error-sample-too-large-with-write",
                                                      { { "size", format_bytes(max_preserved_batch_bytes) } } });
    // Samples start on the read size where they can, so a sample is whole
    // blocks at aligned offsets; on the logical block otherwise.
    const std::uint32_t align = sample % block == 0 ? block : ctx.target.logical_block;
    const std::vector<std::uint64_t> offsets = sample_offsets(ctx.target.size, sample, count, align);
    value_at(ctx.result.summary, overview_keys::samples) = static_cast<std::uint64_t>(offsets.size());
    value_at(ctx.result.summary, overview_keys::sample_size) = sample;
    value_at(ctx.result.summary, overview_keys::access_reads) = access_reads;
    if (ctx.plan_only)
        return;

    const std::size_t rate = ctx.recorder.add_series({ "read", "B", "MB/s", SeriesStyle::Line });
    const std::size_t access = ctx.recorder.add_series({ "access", "B", "us", SeriesStyle::Scatter });
    const std::size_t written = write ? ctx.recorder.add_series({ "write", "B", "MB/s", SeriesStyle::Line }) : 0;
    // Progress: each phase that runs an equal share.
    const double sample_share = 1.0 / (1.0 + (write ? 1.0 : 0.0) + (access_reads ? 1.0 : 0.0));

    // The samples: a sample's time is the sum of its reads' (they run one
    // at a time), so its MB/s is what a reader of those 10 MiB sees.
    std::vector<double> rates;
    rates.reserve(offsets.size());
    std::uint64_t sample_bytes = 0, sample_ns = 0;
    ObserverFunction sample_observer([&](unsigned, const IoCompletion& c) {
        sample_bytes += c.request.length;
        sample_ns += c.latency_ns();
        if (sample_bytes < sample)
            return;
        const double mb_s = mb_per_s(sample_bytes, sample_ns);
        ctx.recorder.add_point(rate, { static_cast<double>(offsets[rates.size()]), mb_s });
        rates.push_back(mb_s);
        sample_bytes = sample_ns = 0;
        ctx.recorder.set_progress(sample_share * static_cast<double>(rates.size()) / offsets.size());
    });
    IoRunSpec samples;
    samples.queue_depth = 1;
    samples.max_request_bytes = block;
    samples.make_source = [&](unsigned) { return std::make_unique<SampleSource>(offsets, sample, block); };
    samples.observer = &sample_observer;
    samples.cancel = &ctx.cancel;
    samples.phase = "samples";
    const IoRunStats sample_stats = ctx.io.run(ctx.target, samples);
    summarise_rates(ctx.result.summary, read_rate_keys, rates);
    value_at(ctx.result.summary, overview_keys::read_bytes) = sample_stats.bytes;
    if (sample_stats.cancelled)
        return;

    if (write) {
        // The same places, each sample one batch: read (not timed), written
        // back unchanged, synced; the write and its sync are its time. A
        // stop between the two writes nothing; a stop during the write
        // leaves every byte as it was.
        std::vector<double> write_rates;
        std::size_t next_sample = 0;
        BatchedWritePlan plan;
        plan.mode = WriteMode::Preserve;
        plan.queue_depth = 1;
        plan.block = block;
        plan.fixed_batch = static_cast<std::size_t>((sample + block - 1) / block);
        plan.next_batch = [&](std::vector<IoRequest>& requests, std::size_t) {
            if (next_sample < offsets.size())
                requests = sample_requests(offsets[next_sample++], sample, block);
        };
        plan.batch_done = [&](std::uint64_t bytes, std::uint64_t ns) {
            if (bytes < sample)
                return; // cut short by a stop: not a sample
            const double mb_s = mb_per_s(bytes, ns);
            ctx.recorder.add_point(written, { static_cast<double>(offsets[write_rates.size()]), mb_s });
            write_rates.push_back(mb_s);
            ctx.recorder.set_progress(sample_share * (1.0 + static_cast<double>(write_rates.size()) / offsets.size()));
        };
        const BatchedWriteStats write_stats = batched_writes(ctx, plan);
        summarise_rates(ctx.result.summary, write_rate_keys, write_rates);
        value_at(ctx.result.summary, overview_keys::write_bytes) = write_stats.bytes;
        value_at(ctx.result.summary, common_keys::mode) = std::string("preserve");
        if (write_stats.cancelled)
            return;
    }
    if (access_reads == 0)
        return;
    const double access_start = write ? 2 * sample_share : sample_share;

    // The access time: one block at a time at seeded random places, each
    // read's time plotted at its place.
    Xoshiro256StarStar rng(ctx.params.unsigned_value("seed"));
    std::uint64_t done = 0;
    ObserverFunction access_observer([&](unsigned, const IoCompletion& c) {
        ctx.recorder.add_point(access, { static_cast<double>(c.request.offset), to_us(c.latency_ns()) });
        ctx.recorder.set_progress(access_start + (1 - access_start) * static_cast<double>(++done) / access_reads);
    });
    IoRunSpec reads;
    reads.queue_depth = 1;
    reads.max_request_bytes = access_block;
    reads.make_source = [&](unsigned) {
        return std::make_unique<RandomSource>(rng, 0, ctx.target.size, access_block, access_block, access_reads);
    };
    reads.observer = &access_observer;
    reads.random = true;
    reads.cancel = &ctx.cancel;
    reads.phase = "access times";
    const IoRunStats access_stats = ctx.io.run(ctx.target, reads);
    add_latency_summary(ctx.result.summary, access_stats.latency, std::string(overview_keys::access_latency_prefix));
}

} // namespace

BenchmarkInfo overview()
{
    BenchmarkInfo info {
        "overview",
        "Overview",
        "GNOME Disks' benchmark: the transfer rate from `samples` reads of `sample_size` spread over the whole "
        "device (O_DIRECT, one read at a time); with `write`, the write rate at the same places in preserve mode "
        "(each sample read, written back unchanged and synced: the data stays, but the run needs write "
        "authorization and an unused device, as a raw write does); and the access time from `access_reads` "
        "single-block reads at seeded random places; plotted as position against MB/s with each access time at "
        "its place. About a minute on any device.",
        with_common_params({
            unsigned_param("samples", "Places along the device where the transfer rate is sampled.", 100, 2, 10'000),
            unsigned_param("sample_size", "Bytes read at each place.", 10 * MiB, 1, GiB),
            unsigned_param("block_size", "Bytes per read within a sample; 0 means the logical block size.", MiB, 0,
                           max_request_size),
            unsigned_param("access_reads", "Single-block reads at random places for the access time (0: none).",
                           1000, 0, 100'000),
            unsigned_param("access_block_size", "Bytes per access-time read; 0 means the logical block size.", 0,
                           0, MiB),
            bool_param("write",
                       "Also measure the write rate at the same places, keeping the data (each sample read and "
                       "written back); needs write authorization and an unused device.",
                       false),
        }),
        run,
    };
    info.writes_when = contract::kinds::writes_when(info.kind); // one name for daemon and clients
    return info;
}

} // namespace diskbench::engine::benchmarks
