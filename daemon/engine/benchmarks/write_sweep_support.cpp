// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_sweep_support.hpp"

#include "../base/errors.hpp"
#include "../base/prng.hpp"
#include "contract/kinds/write_sweep.hpp"

#include <algorithm>
#include <bit>
#include <numeric>

#include <fmt/format.h>

namespace diskbench::engine::benchmarks {

namespace write_sweep_keys = contract::kinds::keys::write_sweep;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

std::uint64_t power_of_two_param(const ParameterSet& params, std::string_view key)
{
    const std::uint64_t value = params.unsigned_value(key);
    if (!std::has_single_bit(value))
        throw ParameterError(std::string(key), Failure { "error-not-power-of-two", { { "value", value } } });
    return value;
}

struct SweepSeries {
    std::size_t mean, median, min, max, repetitions;
};

} // namespace

std::vector<ParamSpec> write_sweep_params(std::string_view amount_help)
{
    return {
        unsigned_param("amount_per_size", amount_help, 64 * MiB, 1, 1ULL << 50),
        unsigned_param("min_block", "Smallest block size in bytes (a power of two).", 512, 512, max_request_size),
        unsigned_param("max_block", "Largest block size in bytes (a power of two).", 16 * MiB, 512, max_request_size),
        unsigned_param("repetitions", "Writes of amount_per_size per block size, at least 9: the dd study found 9 "
                                      "the least that shows the spread.",
                       9, 9, 1000),
    };
}

WriteSweepPlan plan_write_sweep(const ParameterSet& params, Recorder& recorder, std::uint64_t room,
                                std::string_view where)
{
    const std::uint64_t smallest = power_of_two_param(params, "min_block");
    std::uint64_t largest = power_of_two_param(params, "max_block");
    if (largest < smallest)
        throw ParameterError("max_block",
                             Failure { "error-max-below-min-block", { { "max", largest }, { "min", smallest } } });
    std::uint64_t amount = fitted_amount(params, recorder, "amount_per_size", room, smallest,
                                         "the amount written per block size", where);
    if (amount < smallest)
        throw ParameterError("amount_per_size",
                             Failure { "error-amount-below-min-block", { { "amount", amount }, { "min", smallest } } });
    if (amount < largest) {
        if (params.given("max_block"))
            throw ParameterError("max_block", Failure { "error-block-above-amount",
                                                        { { "block", format_bytes(largest) },
                                                          { "amount", format_bytes(amount) } } });
        largest = std::bit_floor(amount);
        recorder.note({ "largest-block-scaled-to-amount", { { "block", format_bytes(largest) } } });
    }
    amount -= amount % largest; // a whole number of blocks of every size
    return { powers_of_two(static_cast<std::uint32_t>(smallest), static_cast<std::uint32_t>(largest)), amount,
             params.unsigned_value("repetitions") };
}

void keep_aligned_sizes(WriteSweepPlan& plan, Recorder& recorder, std::uint32_t alignment, std::string_view why)
{
    const std::uint32_t smallest = plan.sizes.empty() ? 0 : plan.sizes.front();
    const std::uint32_t largest = plan.sizes.empty() ? 0 : plan.sizes.back();
    std::erase_if(plan.sizes, [&](std::uint32_t size) { return size % alignment != 0; });
    if (plan.sizes.empty())
        throw ParameterError("max_block", Failure { why == device_logical_block ? "error-no-block-fits-logical-block"
                                                                                : "error-no-block-fits-direct-io",
                                                    { { "block", format_bytes(largest) }, { "alignment", alignment } } });
    if (plan.sizes.front() != smallest)
        recorder.note({ why == device_logical_block ? "small-blocks-left-out-logical-block"
                                                    : "small-blocks-left-out-direct-io",
                        { { "block", format_bytes(plan.sizes.front()) }, { "alignment", alignment } } });
}

void run_write_sweep(Recorder& recorder, Result& result, const CancelToken& cancel, const WriteSweepPlan& plan,
                     std::uint64_t seed, const WriteRepetition& repetition)
{
    const SweepSeries series {
        recorder.add_series({ "throughput", "B", "MB/s", SeriesStyle::Bar }),
        recorder.add_series({ "throughput-median", "B", "MB/s", SeriesStyle::Line }),
        recorder.add_series({ "throughput-min", "B", "MB/s", SeriesStyle::Scatter }),
        recorder.add_series({ "throughput-max", "B", "MB/s", SeriesStyle::Scatter }),
        recorder.add_series({ "repetitions", "B", "MB/s", SeriesStyle::Scatter }),
    };
    const double total = static_cast<double>(plan.sizes.size() * plan.repetitions * plan.amount);
    double done = 0;
    std::uint64_t writes = 0;
    std::uint64_t bytes = 0;
    double best_median = 0;
    double worst_median = 0;
    std::uint32_t best_block = 0;
    for (std::uint32_t size : plan.sizes) {
        std::vector<double> rates;
        for (std::uint64_t index = 0; index < plan.repetitions && !cancel.cancelled(); ++index) {
            // Different data in every repetition (dedup across them gains nothing).
            const std::uint64_t data_seed = SplitMix64(seed ^ (std::uint64_t { size } << 20) ^ index).next();
            PassSpec pass;
            pass.direction = IoDirection::Write;
            pass.size = plan.amount;
            pass.block = size;
            pass.seed = data_seed;
            pass.progress_from = done / total;
            pass.progress_share = static_cast<double>(plan.amount) / total;
            const PassResult result = repetition(pass);
            if (result.cancelled)
                break;
            const double rate = result.mb_per_s();
            rates.push_back(rate);
            recorder.add_point(series.repetitions, { static_cast<double>(size), rate });
            done += static_cast<double>(plan.amount);
            writes += plan.amount / size;
            bytes += plan.amount;
        }
        if (rates.size() < plan.repetitions)
            break; // cancelled: a partial size would be a misleading bar
        const double mean = std::accumulate(rates.begin(), rates.end(), 0.0) / static_cast<double>(rates.size());
        const double middle = median(rates);
        const auto [slowest, fastest] = std::minmax_element(rates.begin(), rates.end());
        const double x = static_cast<double>(size);
        recorder.add_point(series.mean, { x, mean });
        recorder.add_point(series.median, { x, middle });
        recorder.add_point(series.min, { x, *slowest });
        recorder.add_point(series.max, { x, *fastest });
        if (middle > best_median)
            best_median = middle, best_block = size;
        worst_median = worst_median == 0 ? middle : std::min(worst_median, middle);
    }
    value_at(result.summary, write_sweep_keys::writes) = writes;
    value_at(result.summary, write_sweep_keys::bytes) = bytes;
    value_at(result.summary, write_sweep_keys::bytes_per_size) = plan.amount;
    value_at(result.summary, write_sweep_keys::best_block_size) = std::uint64_t { best_block };
    value_at(result.summary, write_sweep_keys::throughput_max_mb_s) = best_median;
    value_at(result.summary, write_sweep_keys::throughput_min_mb_s) = worst_median;
}

} // namespace diskbench::engine::benchmarks
