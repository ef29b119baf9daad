// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/progress_text.hpp"

#include "text/value_format.hpp"
#include "contract/benchmark_kinds.hpp"
#include "text/latency_text.hpp"
#include "types/saved_values.hpp"
#include "text/printf_text.hpp"
#include "contract/job_states.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/overview.hpp"
#include "contract/kinds/qd_sweep.hpp"
#include "contract/kinds/shared_figures.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <tuple>
#include <cmath>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace overview_keys = contract::kinds::keys::overview;
namespace qd_sweep_keys = contract::kinds::keys::qd_sweep;
namespace shared_keys = contract::kinds::keys::shared;

std::string duration_text(double seconds)
{
    // The daemon's timestamps are not ours to trust blindly: no casts of
    // negative or absurd values.
    seconds = std::isfinite(seconds) ? std::clamp(seconds, 0.0, 1e7) : 0.0;
    if (seconds < 60)
        return printf_text(_("%d s"), static_cast<int>(std::ceil(seconds)));
    if (seconds < 3600)
        return printf_text(_("%d min %d s"), static_cast<int>(seconds / 60), static_cast<int>(seconds) % 60);
    return printf_text(_("%d h %d min"), static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60) % 60);
}

std::string device_summary_text(const std::string& kind, const SavedValueMap& summary)
{
    std::vector<std::string> parts;
    // Seek measures access time: its mean leads, as in HDDTest and GNOME Disks.
    if (kind == contract::kinds::seek)
        if (std::optional<std::string> headline = access_time_headline(summary))
            parts.push_back(std::move(*headline));
    // The overview's numbers, GNOME Disks' "Average Read Rate", "Average
    // Write Rate" (when asked for) and "Average Access Time", with the
    // slowest and fastest sample.
    if (kind == contract::kinds::overview) {
        const auto rate_range = [&summary](std::string_view mean_key, std::string_view min_key,
                                           std::string_view max_key) {
            return std::make_tuple(format_value(number_of(summary, mean_key, 0), Unit::MegabytesPerSecond),
                                   format_value(number_of(summary, min_key, 0), Unit::MegabytesPerSecond),
                                   format_value(number_of(summary, max_key, 0), Unit::MegabytesPerSecond));
        };
        if (has_key(summary, overview_keys::read_mb_s)) {
            const auto [mean, low, high]
                = rate_range(overview_keys::read_mb_s, overview_keys::read_min_mb_s, overview_keys::read_max_mb_s);
            /* TRANSLATORS: the overview's read rate: the average of the samples, then the slowest and fastest */
            parts.push_back(printf_text(_("average read rate %s (%s – %s)"), mean.c_str(), low.c_str(), high.c_str()));
        }
        if (has_key(summary, overview_keys::write_mb_s)) {
            const auto [mean, low, high]
                = rate_range(overview_keys::write_mb_s, overview_keys::write_min_mb_s, overview_keys::write_max_mb_s);
            /* TRANSLATORS: the overview's write rate: the average of the samples, then the slowest and fastest */
            parts.push_back(printf_text(_("average write rate %s (%s – %s)"), mean.c_str(), low.c_str(), high.c_str()));
        }
        const double access_us = number_of(summary, overview_keys::access_latency_mean_us, NAN);
        if (!std::isnan(access_us))
            /* TRANSLATORS: the overview's access time, in milliseconds as GNOME Disks gives it */
            parts.push_back(printf_text(_("average access time %.2f ms"), access_us / 1000.0));
        std::string text;
        for (const std::string& part : parts)
            text += (text.empty() ? "" : "  ·  ") + part;
        return text;
    }
    const double throughput = number_of(summary, shared_keys::throughput_mb_s, NAN);
    if (!std::isnan(throughput))
        parts.push_back(format_value(throughput, Unit::MegabytesPerSecond));
    if (kind == contract::kinds::qd_sweep || kind == contract::kinds::file_qd_sweep) {
        const double best = number_of(summary, qd_sweep_keys::best_iops, NAN);
        const bool writes = text_of(summary, qd_sweep_keys::direction) == "write";
        if (!std::isnan(best))
            parts.push_back(printf_text(writes ? _("best %s writing (queue depth %d, thread count %d)")
                                               : _("best %s (queue depth %d, thread count %d)"),
                                        format_value(best, Unit::Iops).c_str(),
                                        static_cast<int>(number_of(summary, qd_sweep_keys::best_queue_depth, 0)),
                                        static_cast<int>(number_of(summary, qd_sweep_keys::best_threads, 0))));
    }
    for (std::string& part : percentile_parts(summary))
        parts.push_back(std::move(part));
    // The drive's temperature over the run (the daemon's temperature_* keys).
    const double start_c = number_of(summary, common_keys::temperature_start_c, NAN);
    const double max_c = number_of(summary, common_keys::temperature_max_c, NAN);
    if (!std::isnan(start_c) && !std::isnan(max_c))
        /* TRANSLATORS: the drive's temperature at the start of a run and the highest during it, e.g. "41 → 52 °C" */
        parts.push_back(printf_text(_("%.0f → %.0f °C"), start_c, max_c));
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : "  ·  ") + part;
    return text;
}

JobProgress job_progress(const JobEntry& job, std::int64_t now_us)
{
    JobProgress progress;
    progress.fraction = job.progress;
    if (job.running()) {
        const double elapsed = static_cast<double>(now_us - static_cast<std::int64_t>(job.started_at_us)) / 1e6;
        progress.text = printf_text(_("%d %%"), static_cast<int>(progress.fraction * 100));
        // Pass k covers (k-1)/N..k/N of Progress (the engine's passes.hpp).
        if (const std::int64_t passes = integer_of(job.parameters, "passes", 1); passes > 1) {
            const auto pass = std::min<std::int64_t>(passes, static_cast<std::int64_t>(progress.fraction * static_cast<double>(passes)) + 1);
            /* TRANSLATORS: which repeat of a benchmark runs, e.g. "pass 2 of 5" */
            progress.text += "  ·  " + printf_text(_("pass %d of %d"), static_cast<int>(pass), static_cast<int>(passes));
        }
        if (progress.fraction > 0.02 && elapsed > 1)
            progress.text += "  ·  " + printf_text(_("about %s left"),
                                                     duration_text(elapsed / progress.fraction * (1 - progress.fraction)).c_str());
        progress.pulse = job.series.empty() && progress.fraction == 0;
    } else if (job.state == contract::job_states::finished) {
        progress.fraction = 1;
        const double took = job.finished_at_us > job.started_at_us
            ? static_cast<double>(job.finished_at_us - job.started_at_us) / 1e6
            : 0.0;
        progress.text = printf_text(_("Finished in %s"), duration_text(took).c_str());
    } else if (job.state == contract::job_states::cancelled) {
        progress.text = _("Stopped");
    } else if (job.state == contract::job_states::failed) {
        progress.text = _("Failed");
    }
    progress.fraction = std::clamp(progress.fraction, 0.0, 1.0);
    return progress;
}

RunningBar sweep_running_bar(const SavedValueMap& parameters, std::uint32_t logical_block, std::size_t done,
                             double last_x)
{
    std::int64_t low = integer_of(parameters, "min_block", 0);
    if (low <= 0)
        low = logical_block ? logical_block : 512;
    const std::int64_t high = std::max(low, integer_of(parameters, "max_block", 0));
    const auto bars = contract::kinds::sweep_size_count(static_cast<std::uint64_t>(low), static_cast<std::uint64_t>(high));
    return { static_cast<double>(bars), done ? last_x * 2 : static_cast<double>(low) };
}

} // namespace diskbench::client
