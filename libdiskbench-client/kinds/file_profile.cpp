// SPDX-License-Identifier: GPL-3.0-or-later
// Profiles in a folder (CrystalDiskMark's tests on a test file): reported
// in CrystalDiskMark's text layout, each test read and written, then mixed.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "results/crystal_report.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

std::string report(const SavedResult& result, const OutsideText& outside)
{
    return crystal_report(result, outside, CrystalRun::Folder);
}

} // namespace

extern constinit const KindPresentation file_profile_presentation {
    // TRANSLATORS: the folder Profiles page: CrystalDiskMark's tests on a test file.
    .title = { contract::kinds::file_profile, N_("Profiles"),
               N_("CrystalDiskMark-style tests on a test file in the folder, each read and written.") },
    .report = report,
};

} // namespace diskbench::client
