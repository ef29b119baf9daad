// SPDX-License-Identifier: GPL-3.0-or-later
// The overview (GNOME Disks' benchmark): its read rate, opt-in write rate
// and access time, said as GNOME Disks says them.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/overview.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>
#include <tuple>

namespace diskbench::client {

namespace {

namespace keys = contract::kinds::keys::overview;

// TRANSLATORS: names of a result's headline figures in the History list and
// its trend, e.g. "access time 8.50 ms", "read 512 MB/s".
constexpr HeadlineCandidate figures[] = {
    { keys::read_mb_s, N_("read"), Unit::MegabytesPerSecond },
    { keys::write_mb_s, N_("write"), Unit::MegabytesPerSecond },
    { keys::access_latency_mean_us, N_("access time"), Unit::Microseconds },
};

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap&) { return figures; }

// GNOME Disks' "Average Read Rate", "Average Write Rate" (when asked for)
// and "Average Access Time", with the slowest and fastest sample.
std::string summary_line(const SavedValueMap& summary)
{
    std::vector<std::string> parts;
    const auto rate_range = [&summary](std::string_view mean_key, std::string_view min_key, std::string_view max_key) {
        return std::make_tuple(format_value(number_of(summary, mean_key, 0), Unit::MegabytesPerSecond),
                               format_value(number_of(summary, min_key, 0), Unit::MegabytesPerSecond),
                               format_value(number_of(summary, max_key, 0), Unit::MegabytesPerSecond));
    };
    if (has_key(summary, keys::read_mb_s)) {
        const auto [mean, low, high] = rate_range(keys::read_mb_s, keys::read_min_mb_s, keys::read_max_mb_s);
        /* TRANSLATORS: the overview's read rate: the average of the samples, then the slowest and fastest */
        parts.push_back(printf_text(_("average read rate %s (%s – %s)"), mean.c_str(), low.c_str(), high.c_str()));
    }
    if (has_key(summary, keys::write_mb_s)) {
        const auto [mean, low, high] = rate_range(keys::write_mb_s, keys::write_min_mb_s, keys::write_max_mb_s);
        /* TRANSLATORS: the overview's write rate: the average of the samples, then the slowest and fastest */
        parts.push_back(printf_text(_("average write rate %s (%s – %s)"), mean.c_str(), low.c_str(), high.c_str()));
    }
    const double access_us = number_of(summary, keys::access_latency_mean_us, NAN);
    if (!std::isnan(access_us))
        /* TRANSLATORS: the overview's access time, in milliseconds as GNOME Disks gives it */
        parts.push_back(printf_text(_("average access time %.2f ms"), access_us / 1000.0));
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : "  ·  ") + part;
    return text;
}

} // namespace

extern constinit const KindPresentation overview_presentation {
    // TRANSLATORS: the first page: GNOME Disks' benchmark (read rate over
    // the whole disk and access time in about a minute).
    .title = { contract::kinds::overview, N_("Overview"),
               N_("Read rate sampled over the whole device and the access time, in about a minute.") },
    .headline_candidates = headline_candidates,
    .summary_line = summary_line,
};

} // namespace diskbench::client
