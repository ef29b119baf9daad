// SPDX-License-Identifier: GPL-3.0-or-later
// Write sweep on a raw device: writes per block size.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation device_write_sweep_presentation {
    // TRANSLATORS: a page title of the raw device write benchmarks
    .title = { contract::kinds::device_write_sweep, N_("Write sweep"),
               N_("Writes to the raw device with block sizes from small to large.") },
    .byte_axis_column = "block size (B)",
};

} // namespace diskbench::client
