// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../dbus/daemon_types.hpp"
#include "../model/recent_results.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace diskbench::client {

// The sidebar: the daemon's devices (name, model, size, SSD or rotational,
// in use) and the user's saved results. Rebuilt from the client's device
// table whenever it changes (hotplug), keeping the selection.
class DeviceSidebar {
public:
    DeviceSidebar(std::function<void(const std::string& device_path)> on_device,
                  std::function<void(const std::string& result_path)> on_result);
    ~DeviceSidebar();
    DeviceSidebar(const DeviceSidebar&) = delete;
    DeviceSidebar& operator=(const DeviceSidebar&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return root_.get(); }
    void set_devices(const std::map<std::string, DeviceEntry>& devices, const std::string& selected);
    void set_results(const std::vector<RecentResult>& results);
    void set_status(const std::string& text); // e.g. the bus is unreachable

private:
    static void on_device_row(GtkListBox*, GtkListBoxRow* row, gpointer self);
    static void on_result_row(GtkListBox*, GtkListBoxRow* row, gpointer self);

    Ref<GtkWidget> root_;
    GtkWidget* devices_ = nullptr;
    GtkWidget* results_ = nullptr;
    GtkWidget* status_ = nullptr;
    std::vector<std::string> device_paths_, result_paths_;
    bool rebuilding_ = false;
    std::function<void(const std::string&)> on_device_, on_result_;
};

} // namespace diskbench::client
