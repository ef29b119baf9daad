// SPDX-License-Identifier: GPL-3.0-or-later
#include "kinds/qd_sweep_text.hpp"

#include "contract/kinds/qd_sweep.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>

namespace diskbench::client::qd_sweep_text {

namespace {

namespace keys = contract::kinds::keys::qd_sweep;

constexpr HeadlineCandidate read_figures[] = {
    { keys::best_iops, N_("best IOPS"), Unit::Iops },
};
// A queue-depth sweep that wrote (its summary's direction).
constexpr HeadlineCandidate write_figures[] = {
    { keys::best_iops, N_("best write IOPS"), Unit::Iops },
};

bool writes(const SavedValueMap& summary)
{
    return text_of(summary, keys::direction) == "write";
}

} // namespace

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap& summary)
{
    return writes(summary) ? std::span<const HeadlineCandidate>(write_figures)
                           : std::span<const HeadlineCandidate>(read_figures);
}

void summary_parts(const SavedValueMap& summary, std::vector<std::string>& parts)
{
    const double best = number_of(summary, keys::best_iops, NAN);
    if (std::isnan(best))
        return;
    parts.push_back(printf_text(writes(summary) ? _("best %s writing (queue depth %d, thread count %d)")
                                                : _("best %s (queue depth %d, thread count %d)"),
                                format_value(best, Unit::Iops).c_str(),
                                static_cast<int>(number_of(summary, keys::best_queue_depth, 0)),
                                static_cast<int>(number_of(summary, keys::best_threads, 0))));
}

} // namespace diskbench::client::qd_sweep_text
