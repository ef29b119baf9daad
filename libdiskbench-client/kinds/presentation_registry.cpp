// SPDX-License-Identifier: GPL-3.0-or-later
#include "kinds/presentation_registry.hpp"

#include <algorithm>
#include <array>

namespace diskbench::client {

// Each defined in kinds/<kind>.cpp. A new kind adds its line here and in
// the table below.
extern const KindPresentation overview_presentation;
extern const KindPresentation seek_presentation;
extern const KindPresentation random_presentation;
extern const KindPresentation sequential_presentation;
extern const KindPresentation surface_presentation;
extern const KindPresentation block_presentation;
extern const KindPresentation profile_presentation;
extern const KindPresentation qd_sweep_presentation;
extern const KindPresentation burst_presentation;
extern const KindPresentation file_rw_presentation;
extern const KindPresentation write_sweep_presentation;
extern const KindPresentation structure_presentation;
extern const KindPresentation small_files_presentation;
extern const KindPresentation file_profile_presentation;
extern const KindPresentation mixed_load_presentation;
extern const KindPresentation file_qd_sweep_presentation;
extern const KindPresentation device_write_presentation;
extern const KindPresentation device_write_sweep_presentation;
extern const KindPresentation sustained_write_presentation;
extern const KindPresentation steady_state_presentation;
extern const KindPresentation verify_capacity_presentation;
extern const KindPresentation burn_in_presentation;
extern const KindPresentation run_set_presentation;

namespace {

// The read pages first, then the folder kinds, the raw device writes and
// the set, as the app lists its pages.
constinit const std::array presentations {
    &overview_presentation,     &seek_presentation,          &random_presentation,
    &sequential_presentation,   &surface_presentation,       &block_presentation,
    &profile_presentation,      &qd_sweep_presentation,      &burst_presentation,
    &file_rw_presentation,
    &write_sweep_presentation,  &structure_presentation,     &small_files_presentation,
    &file_profile_presentation, &mixed_load_presentation,    &file_qd_sweep_presentation,
    &device_write_presentation, &device_write_sweep_presentation, &sustained_write_presentation,
    &steady_state_presentation, &verify_capacity_presentation, &burn_in_presentation, &run_set_presentation,
};

} // namespace

const KindPresentation* kind_presentation(std::string_view kind) noexcept
{
    const auto found = std::find_if(presentations.begin(), presentations.end(),
                                    [kind](const KindPresentation* p) { return p->title.kind == kind; });
    return found == presentations.end() ? nullptr : *found;
}

std::span<const KindPresentation* const> kind_presentations() noexcept
{
    return presentations;
}

} // namespace diskbench::client
