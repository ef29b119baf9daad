// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_support.hpp"

#include "contract/kinds/common_keys.hpp"
#include "contract/series.hpp"

#include "base/errors.hpp"
#include "base/prng.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

namespace diskbench::engine {

ParamSpec unsigned_param(std::string_view key, std::string_view description, std::uint64_t fallback,
                         std::uint64_t minimum, std::uint64_t maximum)
{
    return ParamSpec { key, ParamType::Unsigned, description, Value(fallback), static_cast<double>(minimum),
                       static_cast<double>(maximum) };
}

ParamSpec real_param(std::string_view key, std::string_view description, double fallback, double minimum,
                     double maximum)
{
    return ParamSpec { key, ParamType::Real, description, Value(fallback), minimum, maximum };
}

ParamSpec bool_param(std::string_view key, std::string_view description, bool fallback)
{
    return ParamSpec { key, ParamType::Boolean, description, Value(fallback) };
}

ParamSpec text_param(std::string_view key, std::string_view description, std::string fallback,
                     std::vector<std::string_view> choices)
{
    return ParamSpec { key, ParamType::Text, description, Value(std::move(fallback)), 0, 0, std::move(choices) };
}

std::vector<ParamSpec> with_common_params(std::vector<ParamSpec> params, Seeded seeded, std::string_view default_backend)
{
    if (seeded == Seeded::Yes)
        params.push_back(unsigned_param("seed", "Seed of the offset generator (xoshiro256**); the same seed reads the "
                                            "same offsets on every machine.",
                                        default_seed, 0, UINT64_MAX));
    params.push_back(text_param("backend", "I/O backend: auto (io_uring, else psync), io_uring or psync.",
                                std::string(default_backend), { "auto", "io_uring", "psync" }));
    return params;
}

BackendPreference backend_preference(const ParameterSet& params)
{
    if (!params.values().contains("backend"))
        return BackendPreference::Psync;
    const std::string& name = params.text("backend");
    if (name == "io_uring")
        return BackendPreference::IoUring;
    if (name == "psync")
        return BackendPreference::Psync;
    return BackendPreference::Automatic;
}

std::uint32_t checked_block_size(const BenchmarkContext& ctx, std::string_view key)
{
    const std::uint64_t requested = ctx.params.unsigned_value(key);
    const std::uint64_t logical = ctx.target.logical_block;
    if (requested == 0)
        return static_cast<std::uint32_t>(logical);
    if (requested % logical != 0)
        throw ParameterError(std::string(key), Failure { "error-not-device-logical-block-multiple",
                                                         { { "value", requested }, { "logical_block", logical } } });
    if (requested > ctx.target.size && !ctx.params.given(key)) {
        // A default meant for real disks on a tiny device: use the largest
        // power of two that fits (a multiple of the logical block, since
        // that is a power of two no larger than the size).
        const std::uint64_t fitted = std::bit_floor(ctx.target.size);
        ctx.recorder.note({ "parameter-scaled-to-device",
                            { { "parameter", key }, { "requested", format_bytes(requested) }, { "fitted", format_bytes(fitted) } } });
        return static_cast<std::uint32_t>(fitted);
    }
    if (requested > ctx.target.size)
        throw ParameterError(std::string(key), Failure { "error-larger-than-device",
                                                         { { "size", format_bytes(requested) },
                                                           { "device_size", format_bytes(ctx.target.size) } } });
    if (requested > max_request_size)
        throw ParameterError(std::string(key), Failure { "error-larger-than-limit",
                                                         { { "size", format_bytes(requested) },
                                                           { "limit", format_bytes(max_request_size) } } });
    return static_cast<std::uint32_t>(requested);
}

std::uint64_t fitted_amount(const BenchmarkContext& ctx, std::string_view key, std::uint64_t room,
                            std::uint64_t granule, std::string_view what)
{
    return fitted_amount(ctx.params, ctx.recorder, key, room, granule, what, "the device");
}

std::uint64_t fitted_amount(const ParameterSet& params, Recorder& recorder, std::string_view key, std::uint64_t room,
                            std::uint64_t granule, std::string_view what, std::string_view where)
{
    const std::uint64_t requested = params.unsigned_value(key);
    if (requested <= room)
        return requested;
    if (params.given(key))
        throw ParameterError(std::string(key), Failure { "error-does-not-fit",
                                                         { { "size", format_bytes(requested) },
                                                           { "available", format_bytes(room) } } });
    const std::uint64_t fitted = room - room % granule;
    // `where` is "the device" or "the free space": one catalogue message each.
    recorder.note({ where == "the device" ? "parameter-scaled-to-device" : "parameter-scaled-to-free-space",
                    { { "parameter", what }, { "requested", format_bytes(requested) }, { "fitted", format_bytes(fitted) } } });
    return fitted;
}

void check_in_flight(std::string_view key, std::uint64_t workers, std::uint64_t depth, std::uint64_t block)
{
    const std::uint64_t reads = workers * depth;
    if (reads > max_reads_in_flight)
        throw ParameterError(std::string(key), Failure { "error-too-many-reads-in-flight",
                                                         { { "threads", workers },
                                                           { "depth", depth },
                                                           { "limit", max_reads_in_flight } } });
    if (reads * block > max_buffer_bytes)
        throw ParameterError(std::string(key), Failure { "error-too-many-buffers-in-flight",
                                                         { { "reads", reads },
                                                           { "block", format_bytes(block) },
                                                           { "size", format_bytes(reads * block) },
                                                           { "limit", format_bytes(max_buffer_bytes) } } });
}

std::vector<std::uint32_t> powers_of_two(std::uint32_t smallest, std::uint32_t largest)
{
    std::vector<std::uint32_t> sizes;
    for (std::uint64_t size = smallest; size <= largest; size *= 2)
        sizes.push_back(static_cast<std::uint32_t>(size));
    return sizes;
}

void add_latency_summary(ValueMap& summary, const LatencyHistogram& latency, const std::string& prefix)
{
    using namespace contract::kinds::keys::common;
    summary[latency_key(prefix, latency_mean_us)] = latency.mean() / 1000.0;
    summary[latency_key(prefix, latency_min_us)] = to_us(latency.min());
    summary[latency_key(prefix, latency_max_us)] = to_us(latency.max());
    summary[latency_key(prefix, latency_p50_us)] = to_us(latency.percentile(0.50));
    summary[latency_key(prefix, latency_p90_us)] = to_us(latency.percentile(0.90));
    summary[latency_key(prefix, latency_p99_us)] = to_us(latency.percentile(0.99));
    summary[latency_key(prefix, latency_p99_9_us)] = to_us(latency.percentile(0.999));
}

void add_latency_cdf(Recorder& recorder, std::string_view what, const LatencyHistogram& latency)
{
    if (latency.count() == 0)
        return;
    // Dense where tails live: a CDF is read at its median and its last percents.
    static constexpr double fractions[] = { 0,   0.001, 0.01, 0.05, 0.1,   0.2,   0.3,   0.4,    0.5, 0.6,
                                            0.7, 0.8,   0.9,  0.95, 0.99, 0.995, 0.999, 0.9999, 1.0 };
    std::string name(contract::latency_cdf_prefix);
    if (!what.empty())
        name += "-" + std::string(what);
    const std::size_t series = recorder.add_series({ std::move(name), "us", "%", SeriesStyle::Line });
    for (const double fraction : fractions) {
        // The ends exactly (a percentile is its bucket's middle).
        const std::uint64_t ns = fraction == 0 ? latency.min() : fraction == 1 ? latency.max()
                                                                               : latency.percentile(fraction);
        recorder.add_point(series, { to_us(ns), fraction * 100 });
    }
}

std::uint64_t worker_seed(std::uint64_t seed, unsigned index) noexcept
{
    SplitMix64 mixer(seed + index);
    return index == 0 ? seed : mixer.next();
}

void TimeProgress::completed(unsigned worker, const IoCompletion& completion)
{
    if (worker != 0)
        return;
    if (start_ns_ == 0)
        start_ns_ = completion.submitted_ns;
    // psync may report a read that completed before the first one it reported.
    if (++count_ % 64 != 0 || duration_ns_ == 0 || completion.completed_ns <= start_ns_)
        return;
    const double fraction
        = std::min(1.0, static_cast<double>(completion.completed_ns - start_ns_) / static_cast<double>(duration_ns_));
    recorder_.set_progress(done_before_ + share_ * fraction);
}

} // namespace diskbench::engine
