// SPDX-License-Identifier: GPL-3.0-or-later
// Surface (the whole-disk read map): a scan leads with what it found, and
// its report names every bad range and slow spot.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/surface.hpp"
#include "kinds/surface_faults.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

namespace {

// The drive's state is never under a plain "✓"; a result of before the
// scan kept its faults (no bad_ranges key) has the common headline.
std::optional<std::string> report_headline(const SavedResult& result)
{
    if (!has_key(result.summary, contract::kinds::keys::surface::bad_ranges))
        return std::nullopt;
    const SurfaceFaults faults = surface_faults(result);
    return (faults.has_bad() ? "⚠ " : "✓ ") + surface_fault_line(faults);
}

// Each line escaped on its own: a newline is a control character too.
std::string report_findings(const SavedResult& result, const OutsideText& outside)
{
    std::string found;
    const std::string list = surface_fault_list(surface_faults(result));
    for (std::size_t start = 0; start < list.size();) {
        const std::size_t end = std::min(list.find('\n', start), list.size());
        found += "  " + outside(std::string_view(list).substr(start, end - start)) + "\n";
        start = end + 1;
    }
    return found;
}

} // namespace

extern constinit const KindPresentation surface_presentation {
    // TRANSLATORS: a page title (keep it short): Surface = whole-surface read map
    .title = { contract::kinds::surface, N_("Surface"),
               N_("Whole-surface read map: every block read once; mean with the slowest and fastest read per stretch.") },
    .report_headline = report_headline,
    .report_findings = report_findings,
};

} // namespace diskbench::client
