// SPDX-License-Identifier: GPL-3.0-or-later
// Sustained write: a long write over the device, where its cache runs full.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation sustained_write_presentation {
    // TRANSLATORS: a page title of the raw device write benchmarks
    .title = { contract::kinds::sustained_write, N_("Sustained"),
               N_("A long write over the device: where its cache runs full. Erases the data.") },
};

} // namespace diskbench::client
