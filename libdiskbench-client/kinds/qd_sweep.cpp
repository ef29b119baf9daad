// SPDX-License-Identifier: GPL-3.0-or-later
// The queue-depth sweep on a device: where it saturates (qd_sweep_text).
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "kinds/qd_sweep_text.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation qd_sweep_presentation {
    // TRANSLATORS: a page title (keep it short): QD sweep = queue depth sweep
    .title = { contract::kinds::qd_sweep, N_("QD sweep"),
               N_("Random 4 KiB reads (or writes that keep the data) at growing queue depths and thread counts: where the "
                  "device saturates.") },
    .headline_candidates = qd_sweep_text::headline_candidates,
    .summary_parts = qd_sweep_text::summary_parts,
};

} // namespace diskbench::client
