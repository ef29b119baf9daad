// SPDX-License-Identifier: GPL-3.0-or-later
// Write on a raw device: sequential and random 4 KiB writes.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

extern constinit const KindPresentation device_write_presentation {
    // TRANSLATORS: a page title of the raw device write benchmarks
    .title = { contract::kinds::device_write, N_("Write"),
               N_("Sequential and random 4 KiB writes to the raw device.") },
};

} // namespace diskbench::client
