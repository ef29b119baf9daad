// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/benchmark_pages.hpp"
#include "graph_area.hpp"
#include "parameter_editor.hpp"
#include "page_host.hpp"
#include "profile_grid.hpp"

#include <gtk/gtk.h>

#include <memory>
#include <optional>
#include <string>

namespace diskbench::client {

// One benchmark's page: title, what it does (popover with the equivalent fio
// commands), Start/Stop, progress with ETA, warnings, the live graph and,
// for profiles, the CrystalDiskMark-style table. It shows either a job of
// the selected device (live while it runs) or a result opened from a file,
// with an optional reference result drawn underneath.
class BenchmarkPageView {
public:
    BenchmarkPageView(const BenchmarkPage& page, PageHost& host);
    ~BenchmarkPageView();
    BenchmarkPageView(const BenchmarkPageView&) = delete;
    BenchmarkPageView& operator=(const BenchmarkPageView&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return root_.get(); }
    [[nodiscard]] const BenchmarkPage& page() const noexcept { return page_; }

    // The selected device or folder changed: show its latest job of this kind, if any.
    void device_changed();
    void benchmarks_changed();
    void job_changed(const JobEntry& job);
    void job_points_added(const JobEntry& job);
    void job_removed(const JobEntry& job);

    void start();
    void stop();
    void show_result(SavedResult result);
    void set_reference(std::optional<SavedResult> reference, std::string label);
    // Changes one setting of the next run (as the settings popover does).
    void set_parameter(const std::string& key, const SavedValue& value);
    [[nodiscard]] bool has_reference() const noexcept { return reference_.has_value(); }

    // What is shown (a live job as it stands, or the opened result).
    [[nodiscard]] std::optional<SavedResult> shown_result() const;
    [[nodiscard]] std::string export_graph(const std::string& path) const; // "" or a message
    [[nodiscard]] std::string status() const;                               // "kind:state:points"
    [[nodiscard]] std::string graph_title() const;

private:
    void build();
    void attach_job(const JobEntry& job);
    void detach();
    void rebuild_chart();
    void update_controls();
    void update_description();
    void update_messages(const std::vector<std::string>& warnings, const std::vector<std::string>& notes);
    void build_write_card(GtkWidget* box);
    void update_write_card(bool running);
    // Generic pages draw what the shown job declares; others their chosen view.
    [[nodiscard]] const PageView& view() const { return page_.generic() ? generic_view_ : page_.views.at(view_index_); }
    [[nodiscard]] bool shows_job_of_selection(const JobEntry& job);
    [[nodiscard]] bool can_start();
    [[nodiscard]] bool destroy_only() const;
    [[nodiscard]] std::string summary_of(const SavedValueMap& summary) const;
    std::weak_ptr<bool> begin_start();
    void start_on_device(const DeviceEntry& device);
    void start_in_folder(const std::string& folder);
    void on_started(std::variant<std::string, CallError> reply, const std::string& selection, const std::string& folder);
    [[nodiscard]] SavedValueMap effective_parameters() const;
    [[nodiscard]] const JobEntry* live_job() const;
    static void on_start_clicked(GtkButton*, gpointer self);
    static void on_export_clicked(GtkButton*, gpointer self);
    static void on_view_toggled(GtkToggleButton*, gpointer self);
    static void on_info_shown(GtkPopover*, gpointer self);
    static void on_settings_shown(GtkPopover*, gpointer self);
    static void on_write_mode_toggled(GtkCheckButton*, gpointer self);
    static void on_confirm_changed(GtkEditable*, gpointer self);

    const BenchmarkPage& page_;
    PageHost& host_;
    Ref<GtkWidget> root_;
    GtkWidget* start_button_ = nullptr;
    GtkWidget* progress_ = nullptr;
    GtkWidget* summary_label_ = nullptr;
    GtkWidget* message_revealer_ = nullptr;
    GtkWidget* message_label_ = nullptr;
    GtkWidget* info_label_ = nullptr;
    GtkWidget* fio_label_ = nullptr;
    std::vector<GtkWidget*> view_buttons_;
    // The raw-write consent (DeviceWrite pages only).
    GtkWidget* write_card_ = nullptr;
    GtkWidget* write_label_ = nullptr;
    GtkWidget* keep_button_ = nullptr;
    GtkWidget* erase_button_ = nullptr;
    GtkWidget* confirm_entry_ = nullptr;
    GtkWidget* blocker_label_ = nullptr;
    PageView generic_view_ = generic_view({});
    GraphArea graph_;
    std::unique_ptr<ProfileGrid> profile_grid_;
    ParameterEditor settings_ { [] {} };

    std::size_t view_index_ = 0;
    std::string job_path_;               // the live job shown, or ""
    std::optional<SavedResult> opened_;  // a result shown from a file
    std::optional<SavedResult> reference_;
    std::string reference_label_;
    std::vector<std::size_t> appended_;  // per job series: points already in the chart
    bool starting_ = false;
    bool stopping_ = false;
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace diskbench::client
