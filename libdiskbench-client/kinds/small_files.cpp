// SPDX-License-Identifier: GPL-3.0-or-later
// Small files (HDDTest's): many small files written, read and deleted.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation small_files_presentation {
    // TRANSLATORS: a page title of the folder benchmarks: Small files = many small files
    .title = { contract::kinds::small_files, N_("Small files"),
               N_("Writes, reads and deletes many small files.") },
};

} // namespace diskbench::client
