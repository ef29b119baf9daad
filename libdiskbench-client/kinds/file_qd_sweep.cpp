// SPDX-License-Identifier: GPL-3.0-or-later
// The queue-depth sweep on a test file in a folder: said as the device's
// (qd_sweep_text).
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "kinds/qd_sweep_text.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation file_qd_sweep_presentation {
    // TRANSLATORS: a page title of the folder benchmarks: QD sweep = queue depth sweep on a test file
    .title = { contract::kinds::file_qd_sweep, N_("QD sweep"),
               N_("Random 4 KiB reads or writes on a test file in the folder at growing queue depths and thread counts.") },
    .headline_candidates = qd_sweep_text::headline_candidates,
    .summary_parts = qd_sweep_text::summary_parts,
};

} // namespace diskbench::client
