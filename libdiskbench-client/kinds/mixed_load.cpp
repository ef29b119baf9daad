// SPDX-License-Identifier: GPL-3.0-or-later
// Mixed load (DiskThrasher's): reads and writes at once, so its plain figures are of both.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation mixed_load_presentation {
    // TRANSLATORS: a page title of the folder benchmarks: Mixed load = reads and writes at once
    .title = { contract::kinds::mixed_load, N_("Mixed load"),
               N_("Reads and writes at the same time: throughput of each over time.") },
    .metrics_op = "mixed",
};

} // namespace diskbench::client
