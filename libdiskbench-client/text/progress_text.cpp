// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/progress_text.hpp"

#include "text/value_format.hpp"
#include "kinds/presentation_registry.hpp"
#include "contract/benchmark_kinds.hpp"
#include "text/latency_text.hpp"
#include "types/saved_values.hpp"
#include "text/printf_text.hpp"
#include "contract/job_states.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/shared_figures.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
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
    // A kind that says it its own way (the overview's averages).
    const KindPresentation* presentation = kind_presentation(kind);
    if (presentation && presentation->summary_line)
        return presentation->summary_line(summary);
    std::vector<std::string> parts;
    const double throughput = number_of(summary, shared_keys::throughput_mb_s, NAN);
    if (!std::isnan(throughput))
        parts.push_back(format_value(throughput, Unit::MegabytesPerSecond));
    // What the kind adds: Seek's access time (it has no throughput, so it
    // leads, as in HDDTest and GNOME Disks), a sweep's best cell.
    if (presentation && presentation->summary_parts)
        presentation->summary_parts(summary, parts);
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
