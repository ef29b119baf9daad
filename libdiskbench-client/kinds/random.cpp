// SPDX-License-Identifier: GPL-3.0-or-later
// Random (HDDTest's random reads per block size): the mean latency leads
// (its throughput is per block size, in the series, not one figure), and
// its x axis is the block size.
#include "kinds/kind_presentation.hpp"

#include "contract/benchmark_kinds.hpp"
#include "contract/kinds/common_keys.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

constexpr HeadlineCandidate figures[] = {
    { contract::kinds::keys::common::latency_mean_us, N_("mean latency"), Unit::Microseconds },
};

std::span<const HeadlineCandidate> headline_candidates(const SavedValueMap&) { return figures; }

} // namespace

extern constinit const KindPresentation random_presentation {
    // TRANSLATORS: a page title (keep it short): Random = random reads per block size
    .title = { contract::kinds::random, N_("Random"), N_("Random reads of each block size from the logical block to 1 MiB.") },
    .headline_candidates = headline_candidates,
    .byte_axis_column = "block size (B)",
};

} // namespace diskbench::client
