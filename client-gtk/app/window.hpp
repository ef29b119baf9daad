// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "benchmark_page_view.hpp"
#include "device_sidebar.hpp"
#include "history_page.hpp"
#include "info_page.hpp"
#include "page_host.hpp"
#include "page_list.hpp"
#include "run_set_popover.hpp"
#include "run_set_runner.hpp"

#include <adwaita.h>

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace diskbench::client {

class UiFile;

// The main window: devices | the list of pages (page_list.hpp) | the page,
// under a header with the device's name, the reference picker and the
// menu; one page per benchmark plus History and Info; toasts.
class Window final : public PageHost, public DaemonClient::Observer, public RunSetRunner::Host {
public:
    // `client` may be null (no system bus); the window then says so.
    Window(AdwApplication* app, DaemonClient* client, RecentResults& recent, std::string bus_problem);
    ~Window() override;

    [[nodiscard]] GtkWindow* window() const noexcept { return GTK_WINDOW(window_.get()); }

    // Used by the application's actions (and so by scripts over D-Bus).
    // Before the daemon's devices are listed, the node is remembered and
    // selected once they are (false only when the list has no such node).
    bool select_device_node(const std::string& node);
    // Adds the folder to the sidebar and selects it (after checking we can open it).
    bool select_folder(const std::string& path);
    // Shows KIND's page and presses Start (FORCED over its settings):
    // false when no start went out.
    bool run_benchmark(const std::string& kind, const SavedValueMap& forced = {});
    void show_page(const std::string& kind);
    // In a narrow (folded) window, shows the page's column: a page asked
    // for by name, by shortcut or to run is what the user wants to see.
    void reveal_page();
    // Keyboard navigation (window_pages.cpp): the next (+1) or previous (-1)
    // visible page, the n-th visible page (1-based), the Compare picker.
    bool show_adjacent_page(int step);
    bool show_page_number(int number);
    void show_reference_picker();
    BenchmarkPageView* shown_page();
    // The Info page's SMART row and warning card, "summary|warning" (for
    // scripts and the GUI tests; "" parts when there is none).
    [[nodiscard]] std::string health_text() const;
    // as_reference: drawn under the shown result, the only one compared
    // with, or (add) beside up to three others (the Compare picker, the
    // set-reference action).
    // ONLY_KIND: of a set, only its run of that kind (the Compare picker).
    void open_result_file(const std::string& path, bool as_reference, bool add = false,
                          const std::string& only_kind = {});
    void clear_reference();
    // A result on its page (shown, or a reference); false when no page
    // draws its kind (window_results.cpp).
    bool place_result(SavedResult result, bool as_reference, bool add);
    // A set's runs, each on its page (window_results.cpp).
    void open_set(SavedResult set, bool as_reference, bool add, const std::string& only_kind);
    void save_shown_result(const std::string& path);
    void export_shown_graph(const std::string& path);
    // The shown result's series as CSV (result_csv.hpp): PATH without
    // ".csv", then "-SERIES.csv", a file per series.
    void export_shown_data(const std::string& path);
    [[nodiscard]] std::string status();
    // Runs a set on the selected device (window_run_set.cpp): NAME as
    // diskbenchctl run-set takes it; CUSTOM the kinds of "custom" (empty:
    // the kept ones).
    void run_set(const std::string& name, unsigned pause_s, const std::vector<std::string>& custom = {});
    void stop_set() { run_set_->stop(); }
    // The "Run a Set…" popover (Ctrl+Shift+Return), its page column shown.
    void show_run_set_popover();
    [[nodiscard]] std::string set_status() const { return run_set_->status(); }
    void set_status_listener(std::function<void()> listener) { status_listener_ = std::move(listener); }

    // PageHost
    DaemonClient* client() override { return client_; }
    const DeviceEntry* selected_device() override;
    std::string selected_folder() override { return selected_folder_; }
    RecentResults& recent_results() override { return recent_; }
    void toast(const std::string& message) override;
    void page_changed() override;
    void run_started(const std::string& kind, const std::string& job_path) override;

    // RunSetRunner::Host (window_run_set.cpp)
    bool start_set_run(const std::string& device_path, const std::string& kind, const SavedValueMap& forced) override;
    void set_kept() override;
    void cancel_set_run(const std::string& job_path) override;
    const JobEntry* set_run_job(const std::string& job_path) override { return client_ ? client_->job(job_path) : nullptr; }
    void set_changed() override;
    void set_ended(const std::string& message) override;

    // DaemonClient::Observer
    void devices_changed() override;
    void benchmarks_changed() override;
    void job_changed(const JobEntry& job) override;
    void job_points_added(const JobEntry& job) override;
    void job_removed(const JobEntry& job) override;
    void daemon_availability_changed(bool running) override;

private:
    // The benchmark pages the app always has, History and Info.
    void add_pages();
    GtkWidget* build_run_set_button(); // window_run_set.cpp
    void add_named_page(GtkWidget* widget, const std::string& name, const std::string& title, const std::string& icon,
                        int order);
    void update_content_title();
    // The Compare popover's signals (its widgets are in window.ui).
    void connect_reference_picker(const UiFile& ui);
    void select_device(const std::string& selection);
    void add_listed_pages();
    void add_page(const BenchmarkPage& page);
    void update_page_visibility();
    void update_sidebar_devices();
    void fill_reference_list();
    void update_info_page();
    void update_history_page(); // window_history.cpp
    void focus_shown_page();    // window_pages.cpp
    void keep_if_ours(const JobEntry& job);
    void disconnect();
    static void on_destroy(GtkWidget*, gpointer self);
    static void on_active_changed(GObject*, GParamSpec*, gpointer self);
    static void on_page_switched(GObject*, GParamSpec*, gpointer self);
    static void on_reference_row(GtkListBox*, GtkListBoxRow* row, gpointer self);
    static void on_reference_popover_shown(GtkPopover*, gpointer self);
    static void on_reference_popover_closed(GtkPopover*, gpointer self); // window_pages.cpp

    DaemonClient* client_;
    RecentResults& recent_;
    Ref<GtkWidget> window_;
    std::unique_ptr<DeviceSidebar> sidebar_;
    std::vector<std::unique_ptr<BenchmarkPageView>> pages_;
    std::vector<std::unique_ptr<BenchmarkPage>> listed_pages_; // write and folder kinds, unknown kinds
    std::vector<std::string> folders_;                         // chosen this session, canonical paths
    std::string selected_folder_;                              // one of folders_, or "" (a device is selected)
    std::unique_ptr<InfoPage> info_;
    std::unique_ptr<HistoryPage> history_;
    std::unique_ptr<PageList> page_list_;
    std::unique_ptr<RunSetRunner> run_set_;
    std::unique_ptr<RunSetPopover> run_set_popover_;
    GtkWidget* leaflet_ = nullptr;
    GtkWidget* content_title_ = nullptr;
    GtkWidget* content_ = nullptr; // the page's column of the leaflet
    GtkWidget* stack_ = nullptr;
    GtkWidget* toasts_ = nullptr;
    GtkWidget* reference_button_ = nullptr;
    GtkWidget* reference_list_ = nullptr;
    GtkWidget* reference_popover_ = nullptr;
    std::vector<std::string> reference_paths_;
    std::vector<std::string> reference_kinds_; // beside each path: the kind of the run meant (a set's)
    Ref<GtkWidget> focus_before_picker_; // where Ctrl+R came from
    std::string selected_device_;
    std::string pending_device_node_; // asked for before the devices were listed
    std::set<std::string> kept_jobs_; // runs already written to the recent results
    bool destroyed_ = false;
    std::function<void()> status_listener_;
};

} // namespace diskbench::client
