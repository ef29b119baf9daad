// SPDX-License-Identifier: GPL-3.0-or-later
// Structure (HDDTest's): folder and file operations, op/s per phase.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation structure_presentation {
    // TRANSLATORS: a page title of the folder benchmarks: Structure = folder and file operations
    .title = { contract::kinds::structure, N_("Structure"),
               N_("Builds a tree of folders and empty files, then deletes it.") },
};

} // namespace diskbench::client
