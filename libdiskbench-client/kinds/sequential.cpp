// SPDX-License-Identifier: GPL-3.0-or-later
// Cont (HDDTest's continuous read): throughput along one long read; every figure is the common kind.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation sequential_presentation {
    // TRANSLATORS: a page title (keep it short: a row of the app's list of pages): Cont = continuous (sequential) read
    .title = { contract::kinds::sequential, N_("Cont"),
               N_("Continuous read: throughput along a long sequential read.") },
};

} // namespace diskbench::client
