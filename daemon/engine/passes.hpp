// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Passes: one generic way to run any benchmark several times and merge the
// runs, instead of teaching every benchmark to repeat itself (as
// CrystalDiskMark repeats each test and keeps a summary over the repeats).
//
// Series: pass k's series are published as "<name>.pass<k>" while it runs
// (so a client can draw every pass faintly), and when all passes have ended
// the point-by-point median over the passes as "<name>" (drawn strongly;
// the name a one-pass run uses, so clients that know only "<name>" keep
// working).
//
// Summary: every number is the median over the passes (the headline), and
// every measured figure (a real number: rates, latencies, seconds,
// percentages) also gets "<figure>_min", "<figure>_max" and
// "<figure>_cv_percent" (sample standard deviation over the mean; the
// figure's key stays whole in front, so "throughput_mb_s_min" cannot clash
// with a benchmark's own "throughput_min_mb_s", the slowest interval of one
// run). Text and truth values come from the last complete pass.
//
// Seeds: pass 1 uses the caller's `seed`, so passes=1 reads exactly what it
// read before; pass k uses pass_seed(seed, k). A new seed per pass keeps
// each pass an independent sample of the same distribution: with the same
// offsets every pass, a drive whose read cache holds the touched blocks
// would serve passes 2..N from that cache, flattering them and making the
// spread measure the cache instead of the drive. The seeds are derived, so
// the whole run stays reproducible.

#include "parameters/parameters.hpp"
#include "results/recorder.hpp"
#include "results/result.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::engine {

class CancelToken;

inline constexpr std::uint64_t max_passes = 100;
// The coefficient of variation above which a throughput figure gets a
// warning (CrystalDiskMark-style runs on a quiet drive stay well below it).
inline constexpr double passes_cv_warning_percent = 5.0;

// The `passes` parameter (default 1).
ParamSpec passes_param();

// How the passes are scored, for the kinds that take `scoring`:
// Median (the default) as above; Best as CrystalDiskMark does it: one
// unscored warm-up pass first (its series not published), then each rate
// (MB/s, IOPS, operations per second) the highest of the passes and each
// latency the lowest; other numbers stay medians. summary["scoring"] says
// which.
enum class Scoring { Median, Best };
ParamSpec scoring_param();

// The seed pass `pass` (1-based) uses; pass_seed(seed, 1) == seed.
std::uint64_t pass_seed(std::uint64_t seed, unsigned pass) noexcept;

// "throughput.pass3" for pass 3 of series "throughput"; "mean.pass3.partial"
// for "mean.partial".
std::string pass_series_name(std::string_view name, unsigned pass);

// Runs one pass: the benchmark with `params` (seed already set for the
// pass), publishing to `recorder`, which writes `result`.
using PassFunction = std::function<void(const ParameterSet& params, Recorder& recorder, Result& result)>;

// Runs `run_pass` params.unsigned_value("passes") times (once, untouched,
// when the schema has no `passes` or it is 1) and merges the passes into `result` through
// `recorder`. Progress goes from 0 to 1 over all passes (pass k covers
// (k-1)/N..k/N, so a client shows "pass k of N" from Progress alone).
// Stops after the pass in which `cancel` fired; the merged figures are then
// those of the complete passes (of the cut-short pass when none completed).
void run_passes(const ParameterSet& params, Recorder& recorder, Result& result,
                const CancelToken& cancel, const PassFunction& run_pass);

// Merging, apart so the unit tests can check it with known numbers.
struct PassSpread {
    double median = 0;
    double minimum = 0;
    double maximum = 0;
    double cv_percent = 0;
};
PassSpread spread_of(std::vector<double> values);

// The merged summary of `passes` (at least one) and the warnings about
// throughput figures whose coefficient of variation exceeds
// passes_cv_warning_percent.
ValueMap merge_pass_summaries(const std::vector<ValueMap>& passes, std::vector<contract::Message>& warnings,
                              Scoring scoring = Scoring::Median);

// The point-by-point median of each pass's points (point i of the median
// is the median of point i of the passes that have one).
std::vector<SeriesPoint> median_points(const std::vector<const std::vector<SeriesPoint>*>& passes);

} // namespace diskbench::engine
