// SPDX-License-Identifier: GPL-3.0-or-later
// Seek (HDDTest's access time): the mean access time leads everywhere, as
// in HDDTest and GNOME Disks, and its x axis is the distance a read jumped.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/common_keys.hpp"
#include "text/latency_text.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

namespace common_keys = contract::kinds::keys::common;

constexpr HeadlineCandidate figures[] = {
    { common_keys::latency_mean_us, N_("access time"), Unit::Microseconds },
    { common_keys::latency_p99_us, N_("p99"), Unit::Microseconds },
};

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap&) { return figures; }

void summary_parts(const SavedValueMap& summary, std::vector<std::string>& parts)
{
    if (std::optional<std::string> headline = access_time_headline(summary))
        parts.push_back(std::move(*headline));
}

// "average access time 0.42 ms · p50 0.40 ms · p99 1.2 ms · p99.9 4.2 ms"
std::optional<std::string> report_headline(const SavedResult& result)
{
    std::optional<std::string> line = access_time_headline(result.summary);
    if (line)
        for (const std::string& part : percentile_parts(result.summary))
            *line += "  ·  " + part;
    return line;
}

} // namespace

extern constinit const KindPresentation seek_presentation {
    // TRANSLATORS: page titles (the HDDTest benchmarks): Seek = access
    // time, Random = random reads per block size, Cont = continuous
    // (sequential) read, Surface = whole-surface read map, Block = block
    // size sweep, Profiles = CrystalDiskMark-style tests, QD sweep =
    // queue depth sweep. Keep them short: they are the rows of the
    // app's list of pages.
    .title = { contract::kinds::seek, N_("Seek"),
               N_("Access time: single-block reads at random places; distance travelled against latency.") },
    .headline_candidates = headline_candidates,
    .summary_parts = summary_parts,
    .report_headline = report_headline,
    .byte_axis_column = "distance (B)",
};

} // namespace diskbench::client
