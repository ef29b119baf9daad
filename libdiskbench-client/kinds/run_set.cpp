// SPDX-License-Identifier: GPL-3.0-or-later
// A set of runs (results/run_set.*): its report is its heading, then each
// run's own report, a rule between them.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/run_set.hpp"
#include "results/job_result.hpp"
#include "results/run_set.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

namespace keys = contract::kinds::keys::run_set;

std::string report(const SavedResult& result, const OutsideText& outside)
{
    std::string text = printf_text(_("%s on %s: %s"), outside(run_set_title(result)).c_str(),
                                   outside(result_target_text(result)).c_str(), outside(result.state).c_str());
    if (result.started_at_us > 0)
        text += "  (" + result_date_text(result.started_at_us) + ")";
    text += "\n"
        + printf_text(g_dngettext(GETTEXT_PACKAGE, "%lld of %lld benchmark finished, %lld s rest between them",
                                  "%lld of %lld benchmarks finished, %lld s rest between them",
                                  static_cast<unsigned long>(number_of(result.summary, keys::benchmarks, 0))),
                      static_cast<long long>(number_of(result.summary, keys::finished, 0)),
                      static_cast<long long>(number_of(result.summary, keys::benchmarks, 0)),
                      static_cast<long long>(number_of(result.parameters, "pause_s", 0)))
        + "\n";
    for (const SavedResult& member : result.members)
        text += "\n" + std::string(40, '-') + "\n" + result_report(member, outside);
    return text;
}

} // namespace

extern constinit const KindPresentation run_set_presentation {
    // TRANSLATORS: a result of several benchmarks run one after another
    // on one device and kept as one session (History's rows)
    .title = { contract::kinds::run_set, N_("Set of benchmarks"),
               N_("Several read benchmarks one after another on one device, kept as one session.") },
    .report = report,
};

} // namespace diskbench::client
