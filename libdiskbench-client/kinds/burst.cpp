// SPDX-License-Identifier: GPL-3.0-or-later
// Burst (HD Tune's burst rate): the interface's peak, the rate at which
// the drive's cache answers reads of one small region, said beside the
// link's limit so a reader sees how close to it the drive comes.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/burst.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>

namespace diskbench::client {

namespace {

namespace burst_keys = contract::kinds::keys::burst;
namespace common_keys = contract::kinds::keys::common;

constexpr HeadlineCandidate figures[] = {
    /* TRANSLATORS: the burst rate (HD Tune's term: the interface's peak read rate from the drive's cache) */
    { burst_keys::burst_mb_s, N_("burst"), Unit::MegabytesPerSecond },
    /* TRANSLATORS: the most the link (SATA, USB, PCIe lanes) carries */
    { common_keys::link_limit_mb_s, N_("link limit"), Unit::MegabytesPerSecond },
};

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap&) { return figures; }

// "burst 548 MB/s (the link allows 600 MB/s)"
void summary_parts(const SavedValueMap& summary, std::vector<std::string>& parts)
{
    const double burst = number_of(summary, burst_keys::burst_mb_s, NAN);
    if (std::isnan(burst))
        return;
    const double limit = number_of(summary, common_keys::link_limit_mb_s, 0);
    const std::string rate = format_value(burst, Unit::MegabytesPerSecond);
    parts.push_back(limit > 0
                        /* TRANSLATORS: the burst rate and the link's limit, e.g. "burst 548 MB/s (the link allows 600 MB/s)" */
                        ? printf_text(_("burst %s (the link allows %s)"), rate.c_str(),
                                      format_value(limit, Unit::MegabytesPerSecond).c_str())
                        /* TRANSLATORS: the burst rate, e.g. "burst 548 MB/s" */
                        : printf_text(_("burst %s"), rate.c_str()));
}

} // namespace

extern constinit const KindPresentation burst_presentation {
    // TRANSLATORS: a page title (keep it short): Burst = burst rate, HD Tune's name for the interface's peak
    .title = { contract::kinds::burst, N_("Burst"),
               N_("Burst rate: repeated reads of one small region the drive's cache answers; the interface's peak, "
                  "beside the link's limit.") },
    .headline_candidates = headline_candidates,
    .summary_parts = summary_parts,
};

} // namespace diskbench::client
