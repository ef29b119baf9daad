// SPDX-License-Identifier: GPL-3.0-or-later
// Sustained write: a long write over the device, where its cache runs full.
// Its summary leads with what a buyer of a cheap SSD looks for: how much
// the drive took at its burst speed before it fell (the SLC cache's size),
// and the speed after.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/sustained_write.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>

namespace diskbench::client {

namespace {

namespace sustained_keys = contract::kinds::keys::sustained_write;

// "about 24 GiB at 1900 MB/s, then 480 MB/s"; without a cliff, "no cliff
// in the 8 GiB written".
void summary_parts(const SavedValueMap& summary, std::vector<std::string>& parts)
{
    const double burst = number_of(summary, sustained_keys::burst_mb_s, NAN);
    if (std::isnan(burst))
        return;
    if (boolean_of(summary, sustained_keys::cliff, false) && has_key(summary, sustained_keys::cliff_at_bytes)) {
        /* TRANSLATORS: a sustained write's cache: how much was written at the first speed before it fell to the
           second, e.g. "about 24 GiB at 1900 MB/s, then 480 MB/s" */
        parts.push_back(printf_text(_("about %s at %s, then %s"),
                                    format_value(number_of(summary, sustained_keys::cliff_at_bytes, 0), Unit::Bytes).c_str(),
                                    format_value(burst, Unit::MegabytesPerSecond).c_str(),
                                    format_value(number_of(summary, sustained_keys::steady_mb_s, 0),
                                                 Unit::MegabytesPerSecond).c_str()));
        return;
    }
    /* TRANSLATORS: a sustained write whose speed did not fall, e.g. "no cliff in the 8 GiB written" */
    parts.push_back(printf_text(_("no cliff in the %s written"),
                                format_value(number_of(summary, sustained_keys::bytes, 0), Unit::Bytes).c_str()));
}

} // namespace

extern constinit const KindPresentation sustained_write_presentation {
    // TRANSLATORS: a page title of the raw device write benchmarks
    .title = { contract::kinds::sustained_write, N_("Sustained"),
               N_("A long write over the device: where its cache runs full. Erases the data.") },
    .summary_parts = summary_parts,
};

} // namespace diskbench::client
