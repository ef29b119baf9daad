// SPDX-License-Identifier: GPL-3.0-or-later
// "Overview": GNOME Disks' benchmark, the first thing a user wants of a
// disk, in about a minute whatever its size: the transfer rate sampled at
// `samples` places spread over the whole device (10 MiB each, read with
// O_DIRECT in 1 MiB reads, one at a time, so each sample includes the seek
// to it as GNOME Disks' does), then the access time from `access_reads`
// single-block reads at seeded random places. Plotted as position against
// MB/s, with each access read's time at its position; the summary's
// headline is the average read rate and the mean access time.
#include "../benchmark_support.hpp"
#include "../errors.hpp"
#include "../request_sources.hpp"
#include "benchmarks.hpp"
#include "overview_samples.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

// The requests of every sample, in order.
class SampleSource final : public RequestSource {
public:
    SampleSource(const std::vector<std::uint64_t>& offsets, std::uint64_t sample, std::uint32_t block) noexcept
        : offsets_(offsets), sample_(sample), block_(block) {}
    bool next(IoRequest& request) override
    {
        if (index_ >= offsets_.size())
            return false;
        const std::uint64_t left = sample_ - within_;
        request = { offsets_[index_] + within_, static_cast<std::uint32_t>(std::min<std::uint64_t>(block_, left)) };
        within_ += request.length;
        if (within_ == sample_) {
            within_ = 0;
            ++index_;
        }
        return true;
    }

private:
    const std::vector<std::uint64_t>& offsets_;
    std::uint64_t sample_;
    std::uint32_t block_;
    std::size_t index_ = 0;
    std::uint64_t within_ = 0;
};

void run(BenchmarkContext& ctx)
{
    const std::uint32_t block = checked_block_size(ctx, "block_size");
    const std::uint32_t access_block = checked_block_size(ctx, "access_block_size");
    std::uint64_t sample = fitted_amount(ctx, "sample_size", ctx.target.size, block, "sample");
    sample -= sample % ctx.target.logical_block;
    if (sample < ctx.target.logical_block)
        throw ParameterError("sample_size", fmt::format("must be at least one {}-byte logical block",
                                                        ctx.target.logical_block));
    const std::uint64_t count = ctx.params.unsigned_value("samples");
    const std::uint64_t access_reads = ctx.params.unsigned_value("access_reads");
    // Samples start on the read size where they can, so a sample is whole
    // blocks at aligned offsets; on the logical block otherwise.
    const std::uint32_t align = sample % block == 0 ? block : ctx.target.logical_block;
    const std::vector<std::uint64_t> offsets = sample_offsets(ctx.target.size, sample, count, align);
    ctx.result.summary["samples"] = static_cast<std::uint64_t>(offsets.size());
    ctx.result.summary["sample_size"] = sample;
    ctx.result.summary["access_reads"] = access_reads;
    if (ctx.plan_only)
        return;

    const std::size_t rate = ctx.recorder.add_series({ "read", "B", "MB/s", SeriesStyle::Line });
    const std::size_t access = ctx.recorder.add_series({ "access", "B", "us", SeriesStyle::Scatter });
    const double sample_share = access_reads ? 0.5 : 1.0;

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
    if (!rates.empty()) {
        double sum = 0;
        for (const double r : rates)
            sum += r;
        ctx.result.summary["read_mb_s"] = sum / static_cast<double>(rates.size());
        ctx.result.summary["read_min_mb_s"] = *std::min_element(rates.begin(), rates.end());
        ctx.result.summary["read_max_mb_s"] = *std::max_element(rates.begin(), rates.end());
    }
    ctx.result.summary["read_bytes"] = sample_stats.bytes;
    if (sample_stats.cancelled || access_reads == 0)
        return;

    // The access time: one block at a time at seeded random places, each
    // read's time plotted at its place.
    Xoshiro256StarStar rng(ctx.params.unsigned_value("seed"));
    std::uint64_t done = 0;
    ObserverFunction access_observer([&](unsigned, const IoCompletion& c) {
        ctx.recorder.add_point(access, { static_cast<double>(c.request.offset), to_us(c.latency_ns()) });
        ctx.recorder.set_progress(sample_share + (1 - sample_share) * static_cast<double>(++done) / access_reads);
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
    add_latency_summary(ctx.result.summary, access_stats.latency, "access_");
}

} // namespace

BenchmarkInfo overview()
{
    return {
        "overview",
        "Overview",
        "GNOME Disks' benchmark: the transfer rate from `samples` reads of `sample_size` spread over the whole "
        "device (O_DIRECT, one read at a time), and the access time from `access_reads` single-block reads at "
        "seeded random places; plotted as position against MB/s with each access time at its place. About a "
        "minute on any device.",
        with_common_params({
            unsigned_param("samples", "Places along the device where the transfer rate is sampled.", 100, 2, 10'000),
            unsigned_param("sample_size", "Bytes read at each place.", 10 * MiB, 1, GiB),
            unsigned_param("block_size", "Bytes per read within a sample; 0 means the logical block size.", MiB, 0,
                           max_request_size),
            unsigned_param("access_reads", "Single-block reads at random places for the access time (0: none).",
                           1000, 0, 100'000),
            unsigned_param("access_block_size", "Bytes per access-time read; 0 means the logical block size.", 0,
                           0, MiB),
        }),
        run,
    };
}

} // namespace diskbench::engine::benchmarks
