// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_sidebar.hpp"

#include "../model/benchmark_pages.hpp"
#include "results/folder.hpp"
#include "results/job_result.hpp"
#include "results/run_set.hpp"

#include "ui_file.hpp"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

GtkWidget* row_box(const char* icon, const std::string& title, const std::string& subtitle)
{
    GtkWidget* box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10);
    gtk_box_append(GTK_BOX(box), gtk_image_new_from_icon_name(icon));
    GtkWidget* texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    GtkWidget* first = gtk_label_new(title.c_str());
    gtk_label_set_xalign(GTK_LABEL(first), 0);
    gtk_label_set_ellipsize(GTK_LABEL(first), PANGO_ELLIPSIZE_END);
    GtkWidget* second = gtk_label_new(subtitle.c_str());
    gtk_label_set_xalign(GTK_LABEL(second), 0);
    gtk_label_set_ellipsize(GTK_LABEL(second), PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(second, "caption");
    gtk_widget_add_css_class(second, "dim-label");
    gtk_box_append(GTK_BOX(texts), first);
    gtk_box_append(GTK_BOX(texts), second);
    gtk_box_append(GTK_BOX(box), texts);
    return box;
}

// What Orca says for a row: its title; the subtitle is its description
// (the row's tooltip).
void name_row(GtkWidget* row, const std::string& title)
{
    gtk_accessible_update_property(GTK_ACCESSIBLE(row), GTK_ACCESSIBLE_PROPERTY_LABEL, title.c_str(), -1);
}

void clear(GtkWidget* list)
{
    while (GtkWidget* child = gtk_widget_get_first_child(list))
        gtk_list_box_remove(GTK_LIST_BOX(list), child);
}

std::string kind_title(const std::string& kind)
{
    const BenchmarkPage* page = benchmark_page(kind);
    return page ? _(page->title.c_str()) : kind;
}

const char* icon_for(const DeviceEntry& device)
{
    if (device.removable)
        return "drive-removable-media-symbolic";
    return device.rotational && device.kind != "loop" ? "drive-harddisk-symbolic" : "drive-harddisk-solidstate-symbolic";
}

} // namespace

DeviceSidebar::DeviceSidebar(std::function<void(const std::string&)> on_device,
                             std::function<void(const std::string&)> on_result, std::function<void()> on_choose_folder)
    : on_device_(std::move(on_device))
    , on_result_(std::move(on_result))
    , on_choose_folder_(std::move(on_choose_folder))
{
    // Declared in client-gtk/ui/device-sidebar.ui (the GResource); the
    // rows are the daemon's devices and the kept results, added here.
    const UiFile ui("device-sidebar.ui");
    root_ = Ref<GtkWidget>::add(ui.widget("root"));
    status_ = ui.widget("status");
    devices_ = ui.widget("devices");
    choose_folder_ = ui.widget("choose_folder");
    results_ = ui.widget("results");
    g_signal_connect(devices_, "row-selected", G_CALLBACK(&DeviceSidebar::on_device_row), this);
    g_signal_connect(choose_folder_, "row-activated", G_CALLBACK(&DeviceSidebar::on_folder_button), this);
    g_signal_connect(results_, "row-activated", G_CALLBACK(&DeviceSidebar::on_result_row), this);
}

DeviceSidebar::~DeviceSidebar()
{
    g_signal_handlers_disconnect_by_data(devices_, this);
    g_signal_handlers_disconnect_by_data(results_, this);
    g_signal_handlers_disconnect_by_data(choose_folder_, this);
}

void DeviceSidebar::set_devices(const std::map<std::string, DeviceEntry>& devices,
                                const std::vector<std::string>& folders, const std::string& selected)
{
    rebuilding_ = true;
    clear(devices_);
    device_paths_.clear();
    GtkListBoxRow* selected_row = nullptr;
    for (const auto& [path, device] : devices) {
        std::string subtitle = device.node + " · " + device_subtitle(device);
        GtkWidget* row = gtk_list_box_row_new();
        gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(row), row_box(icon_for(device), device_title(device), subtitle));
        gtk_widget_set_tooltip_text(row, subtitle.c_str());
        name_row(row, device_title(device));
        gtk_list_box_append(GTK_LIST_BOX(devices_), row);
        device_paths_.push_back(path);
        if (path == selected)
            selected_row = GTK_LIST_BOX_ROW(row);
    }
    for (const std::string& folder : folders) {
        GtkWidget* row = gtk_list_box_row_new();
        gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(row),
                                   row_box("folder-symbolic", folder_display_name(folder), folder));
        gtk_widget_set_tooltip_text(row, folder.c_str());
        name_row(row, folder_display_name(folder));
        gtk_list_box_append(GTK_LIST_BOX(devices_), row);
        device_paths_.push_back(folder_key(folder));
        if (folder_key(folder) == selected)
            selected_row = GTK_LIST_BOX_ROW(row);
    }
    if (selected_row)
        gtk_list_box_select_row(GTK_LIST_BOX(devices_), selected_row);
    rebuilding_ = false;
    if (devices.empty())
        set_status(_("No devices to benchmark."));
    else
        set_status({});
}

void DeviceSidebar::set_results(const std::vector<RecentResult>& results)
{
    clear(results_);
    result_paths_.clear();
    constexpr std::size_t shown = 30;
    for (std::size_t i = 0; i < results.size() && i < shown; ++i) {
        const RecentResult& recent = results[i];
        std::string node;
        if (const auto found = recent.result.device_info.find("node"); found != recent.result.device_info.end())
            if (const auto* text = std::get_if<std::string>(&found->second))
                node = *text;
        if (recent.result.target_kind == "directory")
            node = recent.result.folder_name();
        gchar* base = g_path_get_basename(recent.path.c_str());
        GtkWidget* row = gtk_list_box_row_new();
        const std::string title
            = (recent.result.members.empty() ? kind_title(recent.result.kind) : run_set_title(recent.result)) + " · "
            + node;
        gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(row), row_box("document-open-recent-symbolic", title, base));
        name_row(row, title);
        g_free(base);
        gtk_list_box_append(GTK_LIST_BOX(results_), row);
        result_paths_.push_back(recent.path);
    }
}

void DeviceSidebar::set_status(const std::string& text)
{
    gtk_label_set_text(GTK_LABEL(status_), text.c_str());
    gtk_widget_set_visible(status_, !text.empty());
}

void DeviceSidebar::on_device_row(GtkListBox*, GtkListBoxRow* row, gpointer self)
{
    auto* sidebar = static_cast<DeviceSidebar*>(self);
    if (sidebar->rebuilding_ || !row)
        return;
    const int index = gtk_list_box_row_get_index(row);
    if (index >= 0 && static_cast<std::size_t>(index) < sidebar->device_paths_.size())
        sidebar->on_device_(sidebar->device_paths_[static_cast<std::size_t>(index)]);
}

void DeviceSidebar::on_folder_button(GtkListBox*, GtkListBoxRow*, gpointer self)
{
    static_cast<DeviceSidebar*>(self)->on_choose_folder_();
}

void DeviceSidebar::on_result_row(GtkListBox*, GtkListBoxRow* row, gpointer self)
{
    auto* sidebar = static_cast<DeviceSidebar*>(self);
    const int index = gtk_list_box_row_get_index(row);
    if (index >= 0 && static_cast<std::size_t>(index) < sidebar->result_paths_.size())
        sidebar->on_result_(sidebar->result_paths_[static_cast<std::size_t>(index)]);
}

} // namespace diskbench::client
