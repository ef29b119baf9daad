// SPDX-License-Identifier: GPL-3.0-or-later
// Write sweep in a folder (the dd block-size study): writes per block size.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation write_sweep_presentation {
    // TRANSLATORS: a page title of the folder benchmarks: Write sweep = writes per block size
    .title = { contract::kinds::write_sweep, N_("Write sweep"),
               N_("Writes with block sizes from small to large: median throughput with the slowest and fastest repetition.") },
    .byte_axis_column = "block size (B)",
    .metrics_op = "write",
};

} // namespace diskbench::client
