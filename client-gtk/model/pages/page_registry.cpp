// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_registry.hpp"

#include <algorithm>
#include <array>

namespace diskbench::client {

// Each defined in pages/<kind>.cpp. A new kind adds its line here and in
// the table below.
extern const PageModel overview_page;
extern const PageModel seek_page;
extern const PageModel random_page;
extern const PageModel sequential_page;
extern const PageModel surface_page;
extern const PageModel block_page;
extern const PageModel profile_page;
extern const PageModel qd_sweep_page;
extern const PageModel burst_page;
extern const PageModel file_rw_page;
extern const PageModel write_sweep_page;
extern const PageModel structure_page;
extern const PageModel small_files_page;
extern const PageModel file_profile_page;
extern const PageModel mixed_load_page;
extern const PageModel file_qd_sweep_page;
extern const PageModel device_write_page;
extern const PageModel device_write_sweep_page;
extern const PageModel sustained_write_page;
extern const PageModel steady_state_page;
extern const PageModel verify_capacity_page;
extern const PageModel burn_in_page;

namespace {

constinit const std::array models {
    &overview_page,      &seek_page,          &random_page,        &sequential_page,
    &surface_page,       &block_page,         &profile_page,       &qd_sweep_page,
    &burst_page,
    &file_rw_page,       &write_sweep_page,   &structure_page,     &small_files_page,
    &file_profile_page,  &mixed_load_page,    &file_qd_sweep_page, &device_write_page,
    &device_write_sweep_page, &sustained_write_page, &steady_state_page, &verify_capacity_page, &burn_in_page,
};

} // namespace

const PageModel* page_model(std::string_view kind) noexcept
{
    const auto found = std::find_if(models.begin(), models.end(),
                                    [kind](const PageModel* model) { return model->kind == kind; });
    return found == models.end() ? nullptr : *found;
}

std::span<const PageModel* const> page_models() noexcept
{
    return models;
}

} // namespace diskbench::client
