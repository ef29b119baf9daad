// SPDX-License-Identifier: GPL-3.0-or-later
// The capacity check (fake USB sticks and cards): its report leads with the
// verdict, never a plain "✓" over a drive that lost data.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "kinds/capacity_check.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::optional<std::string> report_headline(const SavedResult& result)
{
    const CapacityVerdict verdict = capacity_verdict(result);
    if (!verdict.checked)
        return std::nullopt;
    return (verdict.lost() || verdict.damaged() ? "⚠ " : "✓ ") + capacity_line(verdict);
}

} // namespace

extern constinit const KindPresentation verify_capacity_presentation {
    // TRANSLATORS: the page of the fake-capacity check (a USB stick that
    // claims 256 GB and holds 16 GB).
    .title = { contract::kinds::verify_capacity, N_("Capacity"),
               N_("Whether the device holds as much as it claims: finds fake USB sticks and cards. Erases the data.") },
    .report_headline = report_headline,
};

} // namespace diskbench::client
