// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_writes.hpp"

#include "../base/errors.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/profile.hpp"
#include "direction_tally.hpp"
#include "test_writes.hpp"

namespace diskbench::engine::benchmarks {

namespace common_keys = contract::kinds::keys::common;
namespace profile_keys = contract::kinds::keys::profile;
namespace per_test = contract::kinds::keys::per_test;

std::vector<ParamSpec> profile_write_params()
{
    // Each help a literal of its own call: po/meson.build extracts it there.
    return {
        bool_param("write", "Also write each test after reading it, as CrystalDiskMark's write column: a raw write "
                            "(the write permission, an unused device). mode=destroy writes every test with new "
                            "data and then the mixed test; mode=preserve writes the sequential tests only, each "
                            "range read first and written back.",
                   false),
        text_param("mix", "With write=true and mode=destroy: a mixed test run after the others, like \"RND4K "
                          "Q1T1\": random requests of which mix_read_percent are reads and the rest writes; empty "
                          "for none.",
                   "RND4K Q1T1"),
        unsigned_param("mix_read_percent", "Percent of the mixed test's requests that read.", 70, 0, 100),
        text_param("select", "With write=true: read-write (each test read, then written, then the mixed test) or "
                             "write (only the writes and the mixed test, as CrystalDiskMark's write-only mode).",
                   "read-write", { "read-write", "write" }),
    };
}

ProfileWriteColumn::ProfileWriteColumn(BenchmarkContext& ctx, std::uint64_t region)
    : ctx_(ctx), active_(ctx.params.boolean("write")), region_(region)
{
    if (!active_) {
        if (ctx.params.text("select") == "write")
            throw ParameterError("select", Failure { "error-select-write-without-write", {} });
        return;
    }
    reads_ = ctx.params.text("select") != "write";
    mode_ = checked_write_mode(ctx, true);
    checked_sync_plan(ctx, mode_);
    const std::string& mix = ctx.params.text("mix");
    if (mode_ == WriteMode::Destroy && !mix.empty()) {
        mix_ = parse_profile_test(mix);
        if (!mix_)
            throw ParameterError("mix", Failure { "error-mix-not-a-test", {} });
        if (mix_->block % ctx.target.logical_block != 0)
            throw ParameterError("mix", Failure { "error-test-block-not-logical-multiple", { { "test", mix_->label() } } });
        if (mix_->block > region)
            throw ParameterError("mix", Failure { "error-test-block-above-device", { { "test", mix_->label() } } });
        check_in_flight("mix", mix_->threads, mix_->queue_depth, mix_->block);
    }
    // Everything the writes touch lies in [0, written_range_bytes).
    value_at(ctx.result.summary, common_keys::written_range_bytes) = region;
}

bool ProfileWriteColumn::writes(const ProfileTest& test) const noexcept
{
    return active_ && (mode_ == WriteMode::Destroy || !test.random);
}

std::size_t ProfileWriteColumn::runs(const std::vector<ProfileTest>& tests) const
{
    std::size_t count = mix_ ? 1 : 0;
    for (const ProfileTest& test : tests)
        count += writes(test) ? 1 : 0;
    return count;
}

void ProfileWriteColumn::add_series()
{
    if (!active_)
        return;
    throughput_series_ = ctx_.recorder.add_series({ "write_throughput", "test", "MB/s", SeriesStyle::Bar });
    iops_series_ = ctx_.recorder.add_series({ "write_iops", "test", "IOPS", SeriesStyle::Bar });
    p99_series_ = ctx_.recorder.add_series({ "write_latency_p99", "test", "us", SeriesStyle::Bar });
}

void ProfileWriteColumn::record(std::size_t index, const std::string& test, const WrittenFigures& figures)
{
    const auto x = static_cast<double>(index);
    ctx_.recorder.add_point(throughput_series_, { x, figures.mb_s });
    ctx_.recorder.add_point(iops_series_, { x, figures.iops });
    ctx_.recorder.add_point(p99_series_, { x, to_us(figures.latency.percentile(0.99)) });
    ValueMap& summary = ctx_.result.summary;
    const auto key = [&](std::string_view figure) {
        return profile_keys::direction_key(test, profile_keys::write_prefix, figure);
    };
    summary[key(profile_keys::throughput_mb_s)] = figures.mb_s;
    summary[key(profile_keys::iops)] = figures.iops;
    summary[key(profile_keys::bytes)] = figures.bytes;
    summary[key(profile_keys::seconds)] = figures.seconds;
    add_latency_summary(summary, figures.latency, key(""));
}

void ProfileWriteColumn::leave_out(const ProfileTest& test)
{
    if (active_)
        left_out_ += (left_out_.empty() ? "" : ", ") + test.label();
}

bool ProfileWriteColumn::write_test(std::size_t index, const ProfileTest& test, TimedRunPlan plan)
{
    if (mode_ == WriteMode::Destroy) {
        plan.direction = IoDirection::Write;
        plan.data_seed = plan.seed;
        const IoRunStats stats = destroyed_test_writes(ctx_, plan, syncs_);
        if (stats.cancelled)
            return false;
        record(index, test.summary_key(),
               { stats.megabytes_per_second(), stats.iops(), stats.bytes, stats.seconds(), stats.latency });
        ctx_.result.summary[profile_keys::direction_key(test.summary_key(), profile_keys::write_prefix,
                                                        profile_keys::cpu_percent)]
            = stats.cpu_percent();
    } else {
        const TestWritePlan preserved { test,           plan.seed,      region_, plan.warmup_ns, plan.duration_ns,
                                        plan.max_bytes, plan.progress_before, plan.progress_share };
        const BatchedWriteStats stats = preserved_test_writes(ctx_, preserved);
        syncs_ += stats.syncs;
        if (stats.cancelled)
            return false;
        record(index, test.summary_key(),
               { stats.megabytes_per_second(), stats.iops(), stats.bytes, stats.seconds(), stats.latency });
    }
    written_ += (written_.empty() ? "" : ",") + test.label();
    return true;
}

bool ProfileWriteColumn::mixed_test(std::size_t index, TimedRunPlan plan, std::size_t read_series)
{
    DirectionTally tally(mix_->threads);
    plan.test = *mix_;
    plan.direction = IoDirection::Mixed;
    plan.mix_read_percent = static_cast<unsigned>(ctx_.params.unsigned_value("mix_read_percent"));
    plan.data_seed = plan.seed;
    plan.observer = &tally;
    const IoRunStats stats = destroyed_test_writes(ctx_, plan, syncs_);
    if (stats.cancelled)
        return false;
    const IoRunStats reads = tally.stats(false, stats);
    const IoRunStats writes = tally.stats(true, stats);
    const auto x = static_cast<double>(index);
    ctx_.recorder.add_point(read_series, { x, reads.megabytes_per_second() });
    ctx_.recorder.add_point(throughput_series_, { x, writes.megabytes_per_second() });
    ValueMap& summary = ctx_.result.summary;
    for (const auto& [prefix, part] : { std::pair { profile_keys::read_prefix, &reads },
                                        std::pair { profile_keys::write_prefix, &writes } }) {
        const auto key = [&](std::string_view figure) {
            return profile_keys::direction_key(profile_keys::mix_test, prefix, figure);
        };
        summary[key(profile_keys::throughput_mb_s)] = part->megabytes_per_second();
        summary[key(profile_keys::iops)] = part->iops();
        summary[key(profile_keys::bytes)] = part->bytes;
        add_latency_summary(summary, part->latency, key(""));
    }
    summary[per_test::test_key(profile_keys::mix_test, profile_keys::total_mb_s)] = stats.megabytes_per_second();
    summary[per_test::test_key(profile_keys::mix_test, profile_keys::read_percent)]
        = std::uint64_t { plan.mix_read_percent };
    return true;
}

void ProfileWriteColumn::finish()
{
    if (!active_)
        return;
    value_at(ctx_.result.summary, profile_keys::written_tests) = written_;
    count_syncs(ctx_, syncs_);
    if (!left_out_.empty())
        ctx_.recorder.note({ "profile-random-writes-left-out-preserve", { { "tests", left_out_ } } });
}

} // namespace diskbench::engine::benchmarks
