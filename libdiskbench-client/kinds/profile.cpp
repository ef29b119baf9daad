// SPDX-License-Identifier: GPL-3.0-or-later
// Profiles on a device (CrystalDiskMark's tests): reported in
// CrystalDiskMark's text layout, reads only.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "results/crystal_report.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::string report(const SavedResult& result, const OutsideText& outside)
{
    return crystal_report(result, outside, CrystalRun::Device);
}

} // namespace

extern constinit const KindPresentation profile_presentation {
    // TRANSLATORS: a page title (keep it short): Profiles = CrystalDiskMark-style tests
    .title = { contract::kinds::profile, N_("Profiles"),
               N_("CrystalDiskMark-style tests: sequential and random reads at several queue depths.") },
    .report = report,
};

} // namespace diskbench::client
