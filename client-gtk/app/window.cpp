// SPDX-License-Identifier: GPL-3.0-or-later
#include "window.hpp"
#include "ui_file.hpp"

#include "results/folder.hpp"
#include "results/job_result.hpp"
#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

#include <utility>

#include <cstdlib>
#include <memory>

namespace diskbench::client {

namespace {

// History and Info come last in the list's Drive group, after every
// benchmark the daemon may list there.
constexpr int history_order = 1000;
constexpr int info_order = 1001;

} // namespace

Window::Window(AdwApplication* app, DaemonClient* client, RecentResults& recent, std::string bus_problem)
    : client_(client)
    , recent_(recent)
{
    run_set_ = std::make_unique<RunSetRunner>(recent_, *this);
    // The three columns, their headers, the menu and the Compare popover are
    // declared in client-gtk/ui/window.ui (the GResource); what they hold
    // is added here. GTK keeps a toplevel window; the Window its own reference.
    const UiFile ui("window.ui");
    window_ = Ref<GtkWidget>::add(ui.widget("window"));
    gtk_window_set_application(window(), GTK_APPLICATION(app));
    leaflet_ = ui.widget("leaflet");
    content_ = ui.widget("content_column");
    content_title_ = ui.widget("content_title");
    stack_ = ui.widget("stack");
    toasts_ = ui.widget("toasts");
    for (const char* back : { "devices_back", "pages_back" })
        g_signal_connect_swapped(ui.widget(back), "clicked", G_CALLBACK(+[](GtkWidget* leaflet) {
                                     adw_leaflet_navigate(ADW_LEAFLET(leaflet), ADW_NAVIGATION_DIRECTION_BACK);
                                 }),
                                 leaflet_);
    connect_reference_picker(ui);

    sidebar_ = std::make_unique<DeviceSidebar>(
        [this](const std::string& selection) { select_device(selection); },
        [this](const std::string& path) { open_result_file(path, false); },
        [this] { gtk_widget_activate_action(window_.get(), "app.select-folder-dialog", nullptr); });
    gtk_box_append(GTK_BOX(ui.widget("sidebar_column")), sidebar_->widget());
    // The list follows the stack of pages.
    page_list_ = std::make_unique<PageList>(
        [this](const std::string& name) {
            if (!destroyed_)
                show_page(name);
        },
        [this] { reveal_page(); }); // chosen (click, Enter) in a narrow window: show it
    GtkWidget* page_column = ui.widget("page_column");
    gtk_widget_set_vexpand(page_list_->widget(), TRUE);
    gtk_box_append(GTK_BOX(page_column), page_list_->widget());
    gtk_box_append(GTK_BOX(page_column), build_run_set_button());
    add_pages();
    adw_leaflet_set_visible_child(ADW_LEAFLET(leaflet_), content_);

    g_signal_connect(window_.get(), "destroy", G_CALLBACK(&Window::on_destroy), this);
    g_signal_connect(window_.get(), "notify::is-active", G_CALLBACK(&Window::on_active_changed), this);
    recent_.reload();
    sidebar_->set_results(recent_.results());
    if (client_) {
        client_->add_observer(this);
        devices_changed();
    } else {
        sidebar_->set_status(bus_problem);
    }
}

Window::~Window()
{
    disconnect();
    if (!destroyed_)
        gtk_window_destroy(window());
    pages_.clear();
}

void Window::disconnect()
{
    if (client_)
        client_->remove_observer(this);
    client_ = nullptr;
    status_listener_ = nullptr;
    g_signal_handlers_disconnect_by_data(window_.get(), this);
    if (stack_)
        g_signal_handlers_disconnect_by_data(stack_, this);
    if (reference_list_)
        g_signal_handlers_disconnect_by_data(reference_list_, this);
    if (reference_popover_)
        g_signal_handlers_disconnect_by_data(reference_popover_, this);
}

void Window::on_destroy(GtkWidget*, gpointer self)
{
    // The widgets are going: nothing may reach them from a D-Bus callback.
    auto* window = static_cast<Window*>(self);
    window->destroyed_ = true;
    window->disconnect();
}

void Window::on_active_changed(GObject*, GParamSpec*, gpointer self)
{
    // The daemon exits when idle; coming back to the window, see the
    // devices as they are now (this also starts it again).
    auto* window = static_cast<Window*>(self);
    if (window->client_ && !window->client_->daemon_running() && gtk_window_is_active(window->window()))
        window->client_->refresh();
}

void Window::add_pages()
{
    for (const BenchmarkPage& page : benchmark_pages())
        add_page(page);
    history_ = std::make_unique<HistoryPage>(
        recent_, [this](const std::string& path, bool as_reference) { open_result_file(path, as_reference); },
        [this] {
            sidebar_->set_results(recent_.results());
            page_changed();
        });
    add_named_page(history_->widget(), std::string(history_page_name), _("History"), "document-open-recent-symbolic",
                   history_order);
    info_ = std::make_unique<InfoPage>();
    add_named_page(info_->widget(), std::string(info_page_name), _("Info"), "dialog-information-symbolic", info_order);
    g_signal_connect(stack_, "notify::visible-child", G_CALLBACK(&Window::on_page_switched), this);
    const char* first = adw_view_stack_get_visible_child_name(ADW_VIEW_STACK(stack_));
    page_list_->select(first ? first : "");
}

void Window::add_named_page(GtkWidget* widget, const std::string& name, const std::string& title,
                            const std::string& icon, int order)
{
    adw_view_stack_add_titled_with_icon(ADW_VIEW_STACK(stack_), widget, name.c_str(), title.c_str(), icon.c_str());
    page_list_->add(name, title, icon, { page_group(name, PageTarget::Device), order });
}

void Window::add_page(const BenchmarkPage& page)
{
    auto view = std::make_unique<BenchmarkPageView>(page, *this);
    const PageOrder order { page_group(page.kind, page.target), static_cast<int>(pages_.size()) };
    adw_view_stack_add_titled_with_icon(ADW_VIEW_STACK(stack_), view->widget(), page.kind.c_str(),
                                        _(page.title.c_str()), page.icon.c_str());
    page_list_->add(page.kind, _(page.title.c_str()), page.icon, order);
    pages_.push_back(std::move(view));
}

void Window::add_listed_pages()
{
    // Write and folder kinds (and kinds this version does not know) get a
    // page once the daemon lists them.
    if (!client_)
        return;
    for (const BenchmarkInfo& info : client_->benchmarks()) {
        const bool have = std::any_of(pages_.begin(), pages_.end(),
                                      [&info](const auto& page) { return page->page().kind == info.kind; });
        if (have)
            continue;
        listed_pages_.push_back(
            std::make_unique<BenchmarkPage>(page_for_kind(info.kind, info.target, info.title, info.description)));
        add_page(*listed_pages_.back());
    }
}

void Window::update_page_visibility()
{
    // A folder shows the folder kinds; a device its read and write kinds;
    // only kinds the daemon lists (before it answered: the read pages).
    const bool folder = !selected_folder_.empty();
    const bool listed = client_ && !client_->benchmarks().empty();
    GtkWidget* first_visible = nullptr;
    bool shown_hidden = false;
    GtkWidget* shown = adw_view_stack_get_visible_child(ADW_VIEW_STACK(stack_));
    for (auto& view : pages_) {
        const BenchmarkPage& page = view->page();
        bool visible = folder ? page.target == PageTarget::Directory : page.target != PageTarget::Directory;
        visible = visible && (listed ? client_->benchmark(page.kind) != nullptr : page.target == PageTarget::Device);
        adw_view_stack_page_set_visible(adw_view_stack_get_page(ADW_VIEW_STACK(stack_), view->widget()), visible);
        page_list_->set_visible(page.kind, visible);
        if (visible && !first_visible)
            first_visible = view->widget();
        if (!visible && view->widget() == shown)
            shown_hidden = true;
    }
    if (shown_hidden && first_visible)
        adw_view_stack_set_visible_child(ADW_VIEW_STACK(stack_), first_visible);
}

void Window::update_sidebar_devices()
{
    static const std::map<std::string, DeviceEntry> none;
    sidebar_->set_devices(client_ ? client_->devices() : none, folders_,
                          selected_folder_.empty() ? selected_device_ : DeviceSidebar::folder_key(selected_folder_));
}

bool Window::select_folder(const std::string& path)
{
    // Canonical, as the daemon names it in Job.Target.
    const std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), std::free);
    const std::string folder = real ? real.get() : path;
    std::string error;
    if (!open_directory(folder, error)) {
        toast(printf_text(_("Cannot open “%s”: %s"), folder_display_name(folder).c_str(), error.c_str()));
        return false;
    }
    if (std::find(folders_.begin(), folders_.end(), folder) == folders_.end())
        folders_.push_back(folder);
    select_device(DeviceSidebar::folder_key(folder));
    update_sidebar_devices();
    return true;
}

const DeviceEntry* Window::selected_device()
{
    return client_ ? client_->device(selected_device_) : nullptr;
}

void Window::toast(const std::string& message)
{
    if (destroyed_)
        return;
    // libadwaita 1.2 reads a toast's title as Pango markup; messages carry
    // file names and the daemon's words.
    gchar* escaped = g_markup_escape_text(message.c_str(), -1);
    AdwToast* toast = adw_toast_new(escaped);
    g_free(escaped);
    adw_toast_set_timeout(toast, 6);
    adw_toast_overlay_add_toast(ADW_TOAST_OVERLAY(toasts_), toast);
}

void Window::page_changed()
{
    if (status_listener_)
        status_listener_();
}

void Window::select_device(const std::string& selection)
{
    if (leaflet_ && adw_leaflet_get_folded(ADW_LEAFLET(leaflet_)))
        adw_leaflet_navigate(ADW_LEAFLET(leaflet_), ADW_NAVIGATION_DIRECTION_FORWARD);
    const std::string prefix = DeviceSidebar::folder_key({});
    const std::string device = selection.starts_with(prefix) ? std::string() : selection;
    const std::string folder = selection.starts_with(prefix) ? selection.substr(prefix.size()) : std::string();
    if (device == selected_device_ && folder == selected_folder_)
        return;
    selected_device_ = device;
    selected_folder_ = folder;
    for (auto& page : pages_)
        page->device_changed();
    update_content_title();
    update_page_visibility();
    update_info_page();
    update_history_page();
    page_changed();
}

bool Window::select_device_node(const std::string& node)
{
    // A script (or --device) may ask as the window opens, before the
    // daemon has answered: selecting the first device then, and saying
    // there is no such device, would be wrong twice.
    if (!client_ || !client_->devices_listed()) {
        pending_device_node_ = node;
        return true;
    }
    pending_device_node_.clear();
    const DeviceEntry* device = client_->device_by_node(node);
    if (!device)
        return false;
    select_device(device->path);
    update_sidebar_devices();
    return true;
}

void Window::devices_changed()
{
    if (!client_)
        return;
    // The device a script asked for before the list came (select_device_node).
    if (!pending_device_node_.empty() && client_->devices_listed()) {
        const std::string node = std::exchange(pending_device_node_, {});
        if (const DeviceEntry* device = client_->device_by_node(node)) {
            select_device(device->path);
        } else {
            toast(_("No such device."));
        }
    }
    // Keep the selection; pick the first device when nothing is selected.
    if (!client_->device(selected_device_))
        selected_device_.clear();
    const std::string before = selected_device_;
    if (selected_device_.empty() && selected_folder_.empty() && !client_->devices().empty())
        selected_device_ = client_->devices().begin()->first;
    update_sidebar_devices();
    if (selected_device_ != before)
        for (auto& page : pages_)
            page->device_changed();
    update_content_title();
    update_info_page();
    update_history_page();
    for (auto& page : pages_)
        page->benchmarks_changed();
}

void Window::benchmarks_changed()
{
    add_listed_pages();
    update_page_visibility();
    for (auto& page : pages_)
        page->benchmarks_changed();
}

void Window::job_changed(const JobEntry& job)
{
    for (auto& page : pages_)
        page->job_changed(job);
    run_set_->job_updated(job);
    if (!job.running()) {
        keep_if_ours(job);
        update_info_page();
    }
}

void Window::job_points_added(const JobEntry& job)
{
    for (auto& page : pages_)
        page->job_points_added(job);
    run_set_->job_updated(job);
    if (!job.running())
        keep_if_ours(job); // the last points came after the end
}

void Window::job_removed(const JobEntry& job)
{
    run_set_->job_removed(job.path);
    for (auto& page : pages_)
        page->job_removed(job);
}

void Window::daemon_availability_changed(bool running)
{
    if (running)
        sidebar_->set_status({});
    else if (client_ && client_->bus_broken())
        sidebar_->set_status(_("Lost the connection to the system bus. Restart the app."));
    else if (client_ && client_->devices().empty())
        sidebar_->set_status(_("The benchmark service (diskbenchd) is not available. Is diskbench installed correctly?"));
    for (auto& page : pages_)
        page->benchmarks_changed();
}

void Window::update_content_title()
{
    std::string title;
    if (!selected_folder_.empty())
        title = folder_display_name(selected_folder_);
    else if (const DeviceEntry* device = selected_device())
        title = device_title(*device);
    adw_window_title_set_title(ADW_WINDOW_TITLE(content_title_), title.empty() ? _("Disk Benchmark") : title.c_str());
}

void Window::update_info_page()
{
    const DeviceEntry* device = selected_device();
    const SavedValueMap* last_run = nullptr;
    std::string backend;
    const JobEntry* latest = nullptr;
    if (client_ && device)
        for (const auto& [path, job] : client_->jobs())
            if (job.device == device->path && (!latest || job.started_at_us > latest->started_at_us))
                latest = &job;
    if (latest) {
        last_run = &latest->device_info;
        backend = latest->backend;
    }
    // SMART health, against the newest kept result of the same drive that
    // recorded it: did its bad sectors grow?
    HealthVerdict health;
    if (device && !device->health.empty()) {
        recent_.reload_if_changed();
        health = device_health(*device, recent_.results());
    }
    info_->set(device, last_run, backend, client_ ? client_->daemon_version() : std::string(), health);
    // The app's "health" action follows the Info page (a device's Health
    // changes without any page changing).
    if (status_listener_)
        status_listener_();
}

std::string Window::health_text() const
{
    return info_ ? info_->health_summary() + "|" + info_->health_warning() : std::string("|");
}

void Window::show_page(const std::string& kind)
{
    adw_view_stack_set_visible_child_name(ADW_VIEW_STACK(stack_), kind.c_str());
}

void Window::reveal_page()
{
    if (!destroyed_ && adw_leaflet_get_folded(ADW_LEAFLET(leaflet_)))
        adw_leaflet_set_visible_child(ADW_LEAFLET(leaflet_), content_);
}

BenchmarkPageView* Window::shown_page()
{
    const char* name = adw_view_stack_get_visible_child_name(ADW_VIEW_STACK(stack_));
    for (auto& page : pages_)
        if (name && page->page().kind == name)
            return page.get();
    return nullptr;
}

bool Window::run_benchmark(const std::string& kind, const SavedValueMap& forced)
{
    for (auto& page : pages_)
        if (page->page().kind == kind) {
            show_page(kind);
            reveal_page();
            return page->start(forced);
        }
    return false;
}

std::string Window::status()
{
    BenchmarkPageView* page = shown_page();
    const char* name = adw_view_stack_get_visible_child_name(ADW_VIEW_STACK(stack_));
    if (!page && name && name == history_page_name)
        return history_->status();
    return page ? page->status() : std::string(info_page_name) + ":idle:0";
}

void Window::on_page_switched(GObject*, GParamSpec*, gpointer self)
{
    auto* window = static_cast<Window*>(self);
    const char* name = adw_view_stack_get_visible_child_name(ADW_VIEW_STACK(window->stack_));
    window->page_list_->select(name ? name : "");
    // The reference picker is about benchmark pages only.
    gtk_widget_set_sensitive(window->reference_button_, window->shown_page() != nullptr);
    window->page_changed();
}

} // namespace diskbench::client
