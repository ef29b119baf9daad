// SPDX-License-Identifier: GPL-3.0-or-later
// The window's History page follows the sidebar's selection: a device by
// its identity (so its results under another node are listed too), a
// folder by its path.
#include "window.hpp"

#include "results/folder.hpp"
#include "results/job_result.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

void Window::update_history_page()
{
    if (!history_)
        return;
    if (!selected_folder_.empty()) {
        history_->set_subject({ {}, selected_folder_ }, folder_display_name(selected_folder_));
        return;
    }
    if (const DeviceEntry* device = selected_device()) {
        history_->set_subject({ device_info_of(*device), {} }, device_title(*device));
        return;
    }
    history_->set_subject({}, _("no device"));
}

} // namespace diskbench::client
