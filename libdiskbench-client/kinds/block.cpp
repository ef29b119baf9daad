// SPDX-License-Identifier: GPL-3.0-or-later
// Block (HDDTest's block-size sweep): its x axis is the block size.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation block_presentation {
    // TRANSLATORS: a page title (keep it short): Block = sequential reads per block size
    .title = { contract::kinds::block, N_("Block"),
               N_("Sequential reads with block sizes from the logical block to 1 MiB: where the device gets fast.") },
    .byte_axis_column = "block size (B)",
};

} // namespace diskbench::client
