// SPDX-License-Identifier: GPL-3.0-or-later
// R/W file (HDDTest's): write a file into a folder and read it back.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation file_rw_presentation {
    // TRANSLATORS: a page title of the folder (filesystem) benchmarks: R/W file = write a file and read it back
    .title = { contract::kinds::file_rw, N_("R/W file"),
               N_("Writes a file into the folder, then reads it back: throughput along the way.") },
};

} // namespace diskbench::client
