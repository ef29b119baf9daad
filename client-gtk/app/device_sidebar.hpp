// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"
#include "results/recent_results.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace diskbench::client {

// The sidebar: the daemon's devices (name, model, size, SSD or rotational,
// in use), the folders chosen for filesystem benchmarks, "Folder…" to
// choose one, and the user's saved results. Rebuilt from the client's
// device table whenever it changes (hotplug), keeping the selection.
//
// A selection is a device's object path or folder_key(path) for a folder.
class DeviceSidebar {
public:
    DeviceSidebar(std::function<void(const std::string& selection)> on_device,
                  std::function<void(const std::string& result_path)> on_result,
                  std::function<void()> on_choose_folder);
    ~DeviceSidebar();
    DeviceSidebar(const DeviceSidebar&) = delete;
    DeviceSidebar& operator=(const DeviceSidebar&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return root_.get(); }
    void set_devices(const std::map<std::string, DeviceEntry>& devices, const std::vector<std::string>& folders,
                     const std::string& selected);
    static std::string folder_key(const std::string& folder_path) { return "folder:" + folder_path; }
    void set_results(const std::vector<RecentResult>& results);
    void set_status(const std::string& text); // e.g. the bus is unreachable

private:
    static void on_device_row(GtkListBox*, GtkListBoxRow* row, gpointer self);
    static void on_result_row(GtkListBox*, GtkListBoxRow* row, gpointer self);
    static void on_folder_button(GtkListBox*, GtkListBoxRow* row, gpointer self);

    Ref<GtkWidget> root_;
    GtkWidget* devices_ = nullptr;
    GtkWidget* results_ = nullptr;
    GtkWidget* choose_folder_ = nullptr;
    GtkWidget* status_ = nullptr;
    std::vector<std::string> device_paths_, result_paths_;
    bool rebuilding_ = false;
    std::function<void(const std::string&)> on_device_, on_result_;
    std::function<void()> on_choose_folder_;
};

} // namespace diskbench::client
