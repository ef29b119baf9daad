// SPDX-License-Identifier: GPL-3.0-or-later
#include "steady_beside_fresh.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/steady_state.hpp"
#include "kinds/presentation_registry.hpp"
#include "results/device_history.hpp"
#include "results/job_result.hpp"
#include "text/printf_text.hpp"
#include "text/value_format.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

namespace steady_keys = contract::kinds::keys::steady_state;

// "4 KiB random writes at QD32", "4 KiB random 70/30 reads and writes at
// QD32": what the rounds ran (the kind's parameters, their defaults when
// a result does not list one).
std::string workload_text(const SavedValueMap& parameters, const SavedValueMap& summary)
{
    const std::string block = format_value(static_cast<double>(integer_of(parameters, "block_size", 4096)), Unit::Bytes);
    const auto depth = static_cast<long long>(integer_of(parameters, "queue_depth", 32));
    const auto read_percent = static_cast<long long>(integer_of(summary, steady_keys::read_percent, 0));
    if (read_percent <= 0)
        /* TRANSLATORS: a steady-state test's rounds, e.g. "4 KiB random writes at QD32" */
        return printf_text(_("%s random writes at QD%lld"), block.c_str(), depth);
    if (read_percent >= 100)
        /* TRANSLATORS: a steady-state test's rounds, e.g. "4 KiB random reads at QD32" */
        return printf_text(_("%s random reads at QD%lld"), block.c_str(), depth);
    /* TRANSLATORS: a steady-state test's rounds, e.g. "4 KiB random 70/30 reads and writes at QD32" */
    return printf_text(_("%s random %lld/%lld reads and writes at QD%lld"), block.c_str(), read_percent,
                       100 - read_percent, depth);
}

} // namespace

std::string steady_state_beside_fresh(const std::vector<RecentResult>& results, const SavedValueMap& device_identity)
{
    if (device_identity.empty())
        return {};
    for (const RecentResult* kept : history_of(results, { device_identity, {} })) {
        const SavedResult& result = kept->result;
        if (result.kind != contract::kinds::steady_state || !has_key(result.summary, steady_keys::fresh_iops))
            continue;
        // The kind's own words (kinds/steady_state.cpp): steady or not, and
        // fresh; not the latency and temperature of its whole line.
        std::vector<std::string> parts;
        if (const KindPresentation* presentation = kind_presentation(result.kind); presentation && presentation->summary_parts)
            presentation->summary_parts(result.summary, parts);
        if (parts.empty())
            continue;
        const std::string& figures = parts.front();
        /* TRANSLATORS: under the Profiles grid: the disk's last steady-state test, what it ran, when, and its
           figures, e.g. "Steady state, 4 KiB random writes at QD32 (3 Dec 2026 17:58): steady 21.4k IOPS from round
           9 (fresh 96.0k IOPS)" */
        std::string date = result_date_text(taken_at_us(result));
        date.erase(0, date.find_first_not_of(' ')); // " 4 Dec": the day's padding, not wanted after "("
        return printf_text(_("Steady state, %s (%s): %s"), workload_text(result.parameters, result.summary).c_str(),
                           date.c_str(), figures.c_str());
    }
    return {};
}

} // namespace diskbench::client
