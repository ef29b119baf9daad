// SPDX-License-Identifier: GPL-3.0-or-later
// Steady state (SNIA's PTS): an SSD's random-write IOPS once it is full
// and worn in, said beside its fresh-out-of-box figure (the first round
// after the purge), which is what a new drive shows in a short benchmark.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/steady_state.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>

namespace diskbench::client {

namespace {

namespace steady_keys = contract::kinds::keys::steady_state;

constexpr HeadlineCandidate figures[] = {
    /* TRANSLATORS: a steady-state test's IOPS over its measurement window */
    { steady_keys::steady_iops, N_("steady"), Unit::Iops },
    /* TRANSLATORS: a steady-state test's first round, the drive fresh out of the box */
    { steady_keys::fresh_iops, N_("fresh"), Unit::Iops },
};

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap&) { return figures; }

// "steady 21.4k IOPS from round 9 (fresh 96.0k IOPS)"; "not steady in 25
// rounds: last 21.4k IOPS (fresh 96.0k IOPS)".
void summary_parts(const SavedValueMap& summary, std::vector<std::string>& parts)
{
    const double fresh = number_of(summary, steady_keys::fresh_iops, NAN);
    if (std::isnan(fresh))
        return;
    const std::string fresh_text = format_value(fresh, Unit::Iops);
    const double steady = number_of(summary, steady_keys::steady_iops, NAN);
    const auto rounds = static_cast<long long>(integer_of(summary, steady_keys::rounds, 0));
    if (std::isnan(steady)) {
        /* TRANSLATORS: a steady-state test that ran too few rounds to judge, e.g. "3 rounds, fresh 96.0k IOPS" */
        parts.push_back(printf_text(g_dngettext(GETTEXT_PACKAGE, "%lld round, fresh %s", "%lld rounds, fresh %s", static_cast<unsigned long>(rounds)),
                                    rounds, fresh_text.c_str()));
        return;
    }
    const std::string steady_text = format_value(steady, Unit::Iops);
    if (boolean_of(summary, steady_keys::steady_state, false))
        /* TRANSLATORS: a steady-state test's figure, the round its window starts at, and the first round's, e.g.
           "steady 21.4k IOPS from round 9 (fresh 96.0k IOPS)" */
        parts.push_back(printf_text(_("steady %s from round %lld (fresh %s)"), steady_text.c_str(),
                                    static_cast<long long>(integer_of(summary, steady_keys::steady_first_round, 0)),
                                    fresh_text.c_str()));
    else
        /* TRANSLATORS: a steady-state test that never settled, e.g.
           "not steady in 25 rounds: last 21.4k IOPS (fresh 96.0k IOPS)" */
        parts.push_back(printf_text(g_dngettext(GETTEXT_PACKAGE, "not steady in %lld round: last %s (fresh %s)",
                                             "not steady in %lld rounds: last %s (fresh %s)",
                                             static_cast<unsigned long>(rounds)),
                                    rounds, steady_text.c_str(), fresh_text.c_str()));
}

} // namespace

extern constinit const KindPresentation steady_state_presentation {
    // TRANSLATORS: a page title of the raw device write benchmarks (keep it short): SNIA's steady-state test
    .title = { contract::kinds::steady_state, N_("Steady"),
               N_("An SSD once full and worn in: purge, precondition, then rounds of random writes until they "
                  "settle. Erases the data.") },
    .headline_candidates = headline_candidates,
    .summary_parts = summary_parts,
    .metrics_op = "write",
};

} // namespace diskbench::client
