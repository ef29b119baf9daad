// SPDX-License-Identifier: GPL-3.0-or-later
// The dd study's write block-size sweep: for each power-of-two block size
// from min_block to max_block, write amount_per_size bytes into a new file,
// `repetitions` times, each timed up to the end of its fdatasync (the study:
// sync must be inside the timing, and fewer than 9 repetitions do not show
// the spread). Per size: mean, median, min and max MB/s. Each repetition
// is one `dd if=... of=FILE bs=SIZE oflag=direct conv=fdatasync`.
#include "../prng.hpp"
#include "benchmarks.hpp"
#include "file_support.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::uint64_t power_of_two_param(const DirectoryContext& ctx, std::string_view key)
{
    const std::uint64_t value = ctx.params.unsigned_value(key);
    if (!std::has_single_bit(value))
        throw ParameterError(std::string(key), fmt::format("{} is not a power of two", value));
    return value;
}

struct SweepSeries {
    std::size_t mean, median, min, max, repetitions;
};

void run(DirectoryContext& ctx)
{
    const std::uint64_t smallest = power_of_two_param(ctx, "min_block");
    std::uint64_t largest = power_of_two_param(ctx, "max_block");
    if (largest < smallest)
        throw ParameterError("max_block", fmt::format("{} is smaller than min_block ({})", largest, smallest));
    const std::uint64_t room = usable_space(ctx.facts);
    if (room < smallest)
        throw IoError(fmt::format("{}: the filesystem is full: {} free, not even one {} block fits",
                                  ctx.result.target_name, format_bytes(ctx.facts.available_bytes),
                                  format_bytes(smallest)),
                      ENOSPC);
    std::uint64_t amount = fitted_amount(ctx.params, ctx.recorder, "amount_per_size", room, smallest,
                                         "the amount written per block size", "the free space");
    if (amount < smallest)
        throw ParameterError("amount_per_size", fmt::format("{} is less than min_block ({})", amount, smallest));
    if (amount < largest) {
        if (ctx.params.given("max_block"))
            throw ParameterError("max_block", fmt::format("{} is more than the {} written per block size",
                                                          format_bytes(largest), format_bytes(amount)));
        largest = std::bit_floor(amount);
        ctx.recorder.note(fmt::format("largest block size scaled down to {} to fit the amount written per size",
                                      format_bytes(largest)));
    }
    amount -= amount % largest; // a whole number of blocks of every size
    const std::uint64_t repetitions = ctx.params.unsigned_value("repetitions");
    const std::uint64_t seed = ctx.params.unsigned_value("seed");
    if (ctx.plan_only)
        return;

    // A first file tells whether O_DIRECT works here, and its alignment.
    const bool want_direct = ctx.params.boolean("direct");
    bool direct = false;
    std::uint32_t alignment = 1;
    {
        const ScratchFile probe = open_scratch_file(ctx, want_direct, amount);
        direct = probe.direct;
        alignment = probe.target.logical_block;
    }
    std::vector<std::uint32_t> sizes;
    for (std::uint32_t size : powers_of_two(static_cast<std::uint32_t>(smallest), static_cast<std::uint32_t>(largest)))
        if (size % alignment == 0)
            sizes.push_back(size);
    if (sizes.empty())
        throw ParameterError("max_block", fmt::format("no block size up to {} is a multiple of this filesystem's "
                                                      "{}-byte direct I/O alignment",
                                                      format_bytes(largest), alignment));
    if (sizes.front() != smallest)
        ctx.recorder.note(fmt::format("block sizes below {} left out: direct I/O on this filesystem needs {}-byte "
                                      "alignment", format_bytes(sizes.front()), alignment));
    explain_cache_mode(ctx, want_direct, direct);

    const SweepSeries series {
        ctx.recorder.add_series({ "throughput", "B", "MB/s", SeriesStyle::Bar }),
        ctx.recorder.add_series({ "throughput-median", "B", "MB/s", SeriesStyle::Line }),
        ctx.recorder.add_series({ "throughput-min", "B", "MB/s", SeriesStyle::Scatter }),
        ctx.recorder.add_series({ "throughput-max", "B", "MB/s", SeriesStyle::Scatter }),
        ctx.recorder.add_series({ "repetitions", "B", "MB/s", SeriesStyle::Scatter }),
    };
    const double total = static_cast<double>(sizes.size() * repetitions * amount);
    double done = 0;
    std::uint64_t writes = 0;
    std::uint64_t bytes = 0;
    double best_median = 0;
    double worst_median = 0;
    std::uint32_t best_block = 0;
    for (std::uint32_t size : sizes) {
        std::vector<double> rates;
        for (std::uint64_t repetition = 0; repetition < repetitions && !ctx.cancel.cancelled(); ++repetition) {
            // A new file each time, as dd of=NEWFILE: allocation is part of
            // writing a file. The last one's blocks are freed on close,
            // between the timings.
            const ScratchFile file = open_scratch_file(ctx, direct, amount);
            PassSpec pass;
            pass.direction = IoDirection::Write;
            pass.size = amount;
            pass.block = size;
            // Different data in every file (dedup across files gains nothing).
            pass.seed = SplitMix64(seed ^ (std::uint64_t { size } << 20) ^ repetition).next();
            pass.progress_from = done / total;
            pass.progress_share = static_cast<double>(amount) / total;
            const PassResult result = sequential_pass(ctx, file.target, pass);
            if (result.cancelled)
                break;
            rates.push_back(result.mb_per_s());
            ctx.recorder.add_point(series.repetitions, { static_cast<double>(size), rates.back() });
            done += static_cast<double>(amount);
            writes += amount / size;
            bytes += amount;
        }
        if (rates.size() < repetitions)
            break; // cancelled: a partial size would be a misleading bar
        const double mean = std::accumulate(rates.begin(), rates.end(), 0.0) / static_cast<double>(rates.size());
        const double middle = median(rates);
        const auto [slowest, fastest] = std::minmax_element(rates.begin(), rates.end());
        const double x = static_cast<double>(size);
        ctx.recorder.add_point(series.mean, { x, mean });
        ctx.recorder.add_point(series.median, { x, middle });
        ctx.recorder.add_point(series.min, { x, *slowest });
        ctx.recorder.add_point(series.max, { x, *fastest });
        if (middle > best_median)
            best_median = middle, best_block = size;
        worst_median = worst_median == 0 ? middle : std::min(worst_median, middle);
    }
    ctx.result.summary["writes"] = writes;
    ctx.result.summary["bytes"] = bytes;
    ctx.result.summary["bytes_per_size"] = amount;
    ctx.result.summary["best_block_size"] = std::uint64_t { best_block };
    ctx.result.summary["throughput_max_mb_s"] = best_median;
    ctx.result.summary["throughput_min_mb_s"] = worst_median;
}

} // namespace

BenchmarkInfo write_sweep()
{
    return {
        "write-sweep",
        "Write block size",
        "For each power-of-two block size from min_block to max_block, writes amount_per_size bytes into a new "
        "scratch file `repetitions` times, each timed with its fdatasync; mean, median, min and max MB/s per size "
        "(the dd study). O_DIRECT where the filesystem allows it.",
        with_common_params({
            unsigned_param("amount_per_size", "Bytes written with each block size in each repetition (scaled down "
                                              "to 90 % of the free space when not given; the dd study used 1 GiB).",
                           64 * MiB, 1, 1ULL << 50),
            unsigned_param("min_block", "Smallest block size in bytes (a power of two).", 512, 512, max_request_size),
            unsigned_param("max_block", "Largest block size in bytes (a power of two).", 16 * MiB, 512,
                           max_request_size),
            unsigned_param("repetitions", "Writes of amount_per_size per block size; the dd study found 9 the least "
                                          "that shows the spread.",
                           9, 1, 1000),
            direct_param(),
            data_seed_param(),
        }, Seeded::No),
        nullptr,
        run,
    };
}

} // namespace diskbench::engine::benchmarks
