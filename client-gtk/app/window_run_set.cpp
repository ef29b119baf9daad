// SPDX-License-Identifier: GPL-3.0-or-later
// The window's sets of runs: the "Run a Set…" button under the list of
// pages, and the pages it starts one after another (run_set_runner.hpp).
#include "window.hpp"

#include "results/job_result.hpp"
#include "results/run_set.hpp"
#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

GtkWidget* Window::build_run_set_button()
{
    RunSetPopover::Actions actions;
    actions.run = [this](const std::string& name, unsigned pause_s, const std::vector<std::string>& custom) {
        run_set(name, pause_s, custom);
    };
    actions.stop = [this] { run_set_->stop(); };
    actions.offered = [this] { return client_ ? client_->benchmarks() : std::vector<BenchmarkInfo> {}; };
    actions.device_name = [this] {
        const DeviceEntry* device = selected_folder_.empty() ? selected_device() : nullptr;
        return device ? device->node : std::string();
    };
    run_set_popover_ = std::make_unique<RunSetPopover>(std::move(actions));
    return run_set_popover_->button();
}

void Window::show_run_set_popover()
{
    // Folded, the list of pages (where the button is) must show first.
    adw_leaflet_set_visible_child(ADW_LEAFLET(leaflet_), gtk_widget_get_parent(run_set_popover_->button()));
    gtk_menu_button_popup(GTK_MENU_BUTTON(run_set_popover_->button()));
}

void Window::run_set(const std::string& name, unsigned pause_s, const std::vector<std::string>& custom)
{
    if (!client_)
        return;
    if (run_set_->running()) {
        toast(_("A set is running already."));
        return;
    }
    const DeviceEntry* device = selected_folder_.empty() ? selected_device() : nullptr;
    if (!device) {
        toast(_("Select a device: a set reads a device, one benchmark after another."));
        return;
    }
    if (name == custom_run_set && !custom.empty())
        if (const std::string error = keep_run_set_custom_kinds(custom); !error.empty())
            toast(std::string(_("Could not keep the custom set:")) + " " + error);
    auto planned = plan_run_set(name, client_->benchmarks(), custom.empty() ? run_set_custom_kinds() : custom);
    if (const auto* error = std::get_if<std::string>(&planned)) {
        toast(*error);
        return;
    }
    if (pause_s > max_run_set_pause_s)
        pause_s = max_run_set_pause_s;
    run_set_->start(std::move(std::get<RunSetPlan>(planned)), pause_s, device->path);
}

bool Window::start_set_run(const std::string& device_path, const std::string& kind, const SavedValueMap& forced)
{
    // The set stays on its device (its Device object: a disk swapped in at
    // the same node is another one), whatever was selected during a rest.
    const DeviceEntry* device = client_ ? client_->device(device_path) : nullptr;
    if (!device)
        return false;
    if (!selected_folder_.empty() || selected_device_ != device_path) {
        select_device(device_path);
        update_sidebar_devices();
    }
    if (!selected_folder_.empty() || selected_device_ != device_path)
        return false;
    return run_benchmark(kind, forced);
}

void Window::set_kept()
{
    sidebar_->set_results(recent_.results());
    history_->refresh();
}

void Window::run_started(const std::string& kind, const std::string& job_path)
{
    run_set_->run_started(kind, job_path);
}

void Window::cancel_set_run(const std::string& job_path)
{
    if (!client_)
        return;
    client_->cancel_job(job_path, [this](std::optional<CallError> error) {
        if (error)
            toast(error_text(*error).message);
    });
}

void Window::set_changed()
{
    if (run_set_popover_)
        run_set_popover_->set_progress(run_set_->progress_text());
    if (status_listener_)
        status_listener_();
}

void Window::set_ended(const std::string& message)
{
    toast(message);
    sidebar_->set_results(recent_.results());
    history_->refresh();
}

} // namespace diskbench::client
