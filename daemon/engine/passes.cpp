// SPDX-License-Identifier: GPL-3.0-or-later
#include "passes.hpp"

#include "base/cancel_token.hpp"
#include "benchmark_support.hpp"

#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/shared_figures.hpp"
#include "contract/spread.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

namespace diskbench::engine {

namespace common_keys = contract::kinds::keys::common;
namespace shared_keys = contract::kinds::keys::shared;

namespace {

// Takes one pass's output from its own Recorder into the run's: series under
// their pass names, progress scaled into the pass's share.
class PassSink final : public SampleSink {
public:
    // Pass `pass`'s series; its progress is share `slot` (1-based) of `shares`.
    PassSink(Recorder& outer, unsigned pass, unsigned slot, unsigned shares) noexcept
        : outer_(outer), pass_(pass), slot_(slot), shares_(shares) {}

    void series_added(std::size_t index, const SeriesInfo& info) override
    {
        SeriesInfo renamed = info;
        renamed.name = pass_series_name(info.name, pass_);
        if (outer_index_.size() <= index)
            outer_index_.resize(index + 1);
        outer_index_[index] = outer_.add_series(std::move(renamed));
    }

    void point_added(std::size_t series_index, const SeriesPoint& point) override
    {
        outer_.add_point(outer_index_.at(series_index), point);
    }

    void progress_changed(double progress) override
    {
        outer_.set_progress((static_cast<double>(slot_ - 1) + progress) / static_cast<double>(shares_));
    }

private:
    Recorder& outer_;
    unsigned pass_, slot_, shares_;
    std::vector<std::size_t> outer_index_;
};

std::optional<double> number_of(const Value& value)
{
    if (const auto* real = std::get_if<double>(&value))
        return *real;
    if (const auto* count = std::get_if<std::uint64_t>(&value))
        return static_cast<double>(*count);
    if (const auto* signed_count = std::get_if<std::int64_t>(&value))
        return static_cast<double>(*signed_count);
    return std::nullopt;
}

// The figures whose spread is worth a warning: what a user compares
// (throughput and operation rates), not latency percentiles, whose tails
// vary by more than 5 % between runs even on a quiet drive.
bool is_rate(std::string_view key)
{
    return key.ends_with(shared_keys::throughput_mb_s) || key.ends_with(shared_keys::iops) || key.ends_with("_ops_s")
        || key.ends_with("_files_s");
}

// A latency figure (a distribution's "…_us"): lower is better.
bool is_latency(std::string_view key)
{
    return key.ends_with("_us");
}

// A pass that only warms the drive up: its output goes nowhere but the
// progress bar, which it moves through the first of passes + 1 shares.
class WarmupSink final : public SampleSink {
public:
    WarmupSink(Recorder& outer, unsigned shares) noexcept : outer_(outer), shares_(shares) {}
    void series_added(std::size_t, const SeriesInfo&) override {}
    void point_added(std::size_t, const SeriesPoint&) override {}
    void progress_changed(double progress) override { outer_.set_progress(progress / static_cast<double>(shares_)); }

private:
    Recorder& outer_;
    unsigned shares_;
};

// "2541", "41.9", "0.683": whole numbers from 100 on, else 3 digits.
std::string figure_text(double value)
{
    return std::fabs(value) >= 100 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value);
}

double median_of(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// Each series of the first pass, with the same series of the other passes.
void add_median_series(Recorder& recorder, const std::vector<Result>& passes)
{
    for (const Series& first : passes.front().series) {
        if (is_partial_series(first.info.name))
            continue; // a pass's live-only points have no median
        std::vector<const std::vector<SeriesPoint>*> points;
        for (const Result& pass : passes)
            for (const Series& series : pass.series)
                if (series.info.name == first.info.name)
                    points.push_back(&series.points);
        const std::size_t index = recorder.add_series(first.info);
        if (first.info.style == SeriesStyle::Scatter) {
            // A scatter's points are single measurements at offsets that
            // differ per pass (a new seed each): their union is the merged
            // distribution, a median of "point i" would mean nothing.
            for (const auto* pass : points)
                for (const SeriesPoint& point : *pass)
                    recorder.add_point(index, point);
            continue;
        }
        for (const SeriesPoint& point : median_points(points))
            recorder.add_point(index, point);
    }
}

} // namespace

ParamSpec passes_param()
{
    return unsigned_param("passes",
                          "How many times to run the whole benchmark. The summary gives the median over the passes "
                          "and, per figure, _min, _max and _cv_percent; each pass after the first reads with a new "
                          "seed derived from `seed`.",
                          1, 1, max_passes);
}

ParamSpec scoring_param()
{
    return text_param("scoring",
                      "median: each figure the median over the passes; best: as CrystalDiskMark, one unscored "
                      "warm-up pass first, then each rate the highest and each latency the lowest of the passes.",
                      "median", { "median", "best" });
}

std::uint64_t pass_seed(std::uint64_t seed, unsigned pass) noexcept
{
    // Weyl step of SplitMix64: consecutive passes get seeds that share no
    // structure, and pass 1 keeps the caller's seed.
    return seed + static_cast<std::uint64_t>(pass - 1) * 0x9E3779B97F4A7C15ULL;
}

std::string pass_series_name(std::string_view name, unsigned pass)
{
    // "mean.partial" -> "mean.pass2.partial": still the partial series of
    // the pass's "mean.pass2".
    if (is_partial_series(name))
        return partial_series_name(pass_series_name(name.substr(0, name.size() - partial_series_suffix.size()), pass));
    return fmt::format("{}.pass{}", name, pass);
}

PassSpread spread_of(std::vector<double> values)
{
    PassSpread spread;
    if (values.empty())
        return spread;
    spread.median = median_of(values);
    spread.minimum = *std::min_element(values.begin(), values.end());
    spread.maximum = *std::max_element(values.begin(), values.end());
    spread.cv_percent = contract::sample_cv_percent(values);
    return spread;
}

ValueMap merge_pass_summaries(const std::vector<ValueMap>& passes, std::vector<contract::Message>& warnings,
                              Scoring scoring)
{
    ValueMap merged;
    for (const ValueMap& pass : passes)
        for (const auto& [key, value] : pass)
            merged[key] = value; // the last pass that has the key; numbers are replaced below

    for (auto& [key, last] : ValueMap(merged)) {
        std::vector<double> values;
        bool numeric = true;
        for (const ValueMap& pass : passes) {
            const auto found = pass.find(key);
            if (found == pass.end())
                continue;
            const auto number = number_of(found->second);
            numeric = numeric && number.has_value();
            if (number)
                values.push_back(*number);
        }
        if (!numeric || values.empty())
            continue;
        const PassSpread spread = spread_of(values);
        if (std::holds_alternative<double>(last)) {
            merged[key] = scoring == Scoring::Best && is_rate(key) ? spread.maximum
                : scoring == Scoring::Best && is_latency(key)     ? spread.minimum
                                                                  : spread.median;
            if (values.size() < 2)
                continue;
            merged[common_keys::spread_key(key, common_keys::spread_min_suffix)] = spread.minimum;
            merged[common_keys::spread_key(key, common_keys::spread_max_suffix)] = spread.maximum;
            merged[common_keys::spread_key(key, common_keys::spread_cv_percent_suffix)] = spread.cv_percent;
            // IOPS beside MB/s of the same test vary alike: one warning.
            const bool said_by_throughput = key.ends_with(shared_keys::iops)
                && merged.contains(key.substr(0, key.size() - shared_keys::iops.size())
                                   + std::string(shared_keys::throughput_mb_s));
            if (is_rate(key) && !said_by_throughput && spread.cv_percent > passes_cv_warning_percent)
                warnings.push_back({ "passes-varied",
                                     { { "key", key },
                                       { "percent", spread.cv_percent },
                                       { "min", figure_text(spread.minimum) },
                                       { "max", figure_text(spread.maximum) },
                                       { "passes", values.size() } } });
        } else if (std::holds_alternative<std::uint64_t>(last)) {
            merged[key] = static_cast<std::uint64_t>(std::llround(spread.median));
        } else if (std::holds_alternative<std::int64_t>(last)) {
            merged[key] = static_cast<std::int64_t>(std::llround(spread.median));
        }
    }
    return merged;
}

std::vector<SeriesPoint> median_points(const std::vector<const std::vector<SeriesPoint>*>& passes)
{
    std::size_t longest = 0;
    for (const auto* pass : passes)
        longest = std::max(longest, pass->size());
    std::vector<SeriesPoint> median;
    median.reserve(longest);
    for (std::size_t i = 0; i < longest; ++i) {
        std::vector<double> xs, ys;
        for (const auto* pass : passes)
            if (i < pass->size()) {
                xs.push_back((*pass)[i].x);
                ys.push_back((*pass)[i].y);
            }
        median.push_back({ median_of(xs), median_of(ys) });
    }
    return median;
}

void run_passes(const ParameterSet& params, Recorder& recorder, Result& result, const CancelToken& cancel,
                const PassFunction& run_pass)
{
    const unsigned count
        = params.values().contains("passes") ? static_cast<unsigned>(params.unsigned_value("passes")) : 1;
    const bool scored = params.values().contains("scoring");
    const Scoring scoring = scored && params.text("scoring") == "best" ? Scoring::Best : Scoring::Median;
    if (count <= 1 && scoring == Scoring::Median) {
        run_pass(params, recorder, result);
        if (scored)
            value_at(result.summary, common_keys::scoring) = std::string("median");
        return;
    }
    const bool seeded = params.values().contains("seed");
    // Best of N: the warm-up pass reads with a seed of its own (pass 0's),
    // so pass 1 still reads what a single pass would.
    const unsigned shares = count + (scoring == Scoring::Best ? 1 : 0);
    if (scoring == Scoring::Best) {
        Result warmup = result;
        WarmupSink sink(recorder, shares);
        Recorder warmup_recorder(warmup, &sink);
        run_pass(seeded ? params.with_value("seed", pass_seed(params.unsigned_value("seed"), 0)) : params,
                 warmup_recorder, warmup);
        if (cancel.cancelled()) {
            result.summary = std::move(warmup.summary);
            value_at(result.summary, common_keys::scoring) = std::string("best");
            value_at(result.summary, common_keys::passes) = std::uint64_t { 0 };
            recorder.note({ "cancelled-in-warmup-pass", {} });
            return;
        }
    }
    std::vector<Result> passes;
    bool cut_short = false;
    unsigned last_pass = 0;
    for (unsigned pass = 1; pass <= count; ++pass) {
        last_pass = pass;
        Result pass_result = result;
        pass_result.series.clear();
        pass_result.warnings.clear();
        pass_result.notes.clear();
        pass_result.warning_messages.clear();
        pass_result.note_messages.clear();
        PassSink sink(recorder, pass, pass + shares - count, shares);
        Recorder pass_recorder(pass_result, &sink);
        const ParameterSet pass_params
            = seeded ? params.with_value("seed", pass_seed(params.unsigned_value("seed"), pass)) : params;
        run_pass(pass_params, pass_recorder, pass_result);
        for (contract::Message& warning : pass_result.warning_messages)
            recorder.warn(std::move(warning));
        for (contract::Message& note : pass_result.note_messages)
            recorder.note(std::move(note));
        cut_short = cancel.cancelled();
        // A pass cut short measured less than the others: its figures
        // would drag the median, unless there is nothing else.
        if (!cut_short || passes.empty())
            passes.push_back(std::move(pass_result));
        if (cut_short)
            break;
    }

    std::vector<ValueMap> summaries;
    for (const Result& pass : passes)
        summaries.push_back(pass.summary);
    std::vector<contract::Message> warnings;
    result.summary = merge_pass_summaries(summaries, warnings, scoring);
    value_at(result.summary, common_keys::passes) = static_cast<std::uint64_t>(passes.size());
    if (scored)
        value_at(result.summary, common_keys::scoring) = std::string(scoring == Scoring::Best ? "best" : "median");
    for (contract::Message& warning : warnings)
        recorder.warn(std::move(warning));
    if (cut_short)
        recorder.note(last_pass == 1 ? contract::Message { "cancelled-in-first-pass", { { "passes", count } } }
                                     : contract::Message { "cancelled-in-pass",
                                                           { { "pass", last_pass },
                                                             { "passes", count },
                                                             { "complete", passes.size() } } });
    add_median_series(recorder, passes);
}

} // namespace diskbench::engine
