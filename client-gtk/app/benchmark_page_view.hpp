// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/benchmark_pages.hpp"
#include "fault_map.hpp"
#include "page_chart.hpp"
#include "parameter_editor.hpp"
#include "page_host.hpp"
#include "write_consent_card.hpp"

#include <gtk/gtk.h>

#include <memory>
#include <optional>
#include <string>

namespace diskbench::client {

// One benchmark's page, the shell around its parts: title, what it does
// (popover with the equivalent fio commands), settings, Start/Stop,
// progress with ETA (text/progress_text), warnings, the write consent of
// raw writes (WriteConsentCard) and the graph (PageChart). It shows either a
// job of the selected device or folder (live while it runs) or a result
// opened from a file, with an optional reference result drawn underneath.
class BenchmarkPageView {
public:
    // CrystalDiskMark's unit menu of a Profiles page (profile_units.hpp);
    // false on other pages.
    bool set_profile_unit(ProfileUnit unit);
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

    // False when no start went out (nothing selected, already running).
    // FORCED: values sent over the settings' (a set keeps the overview's
    // write rate off).
    bool start(const SavedValueMap& forced = {});
    void stop();
    // The keyboard to Start (or Stop), else the page's first control.
    void focus_primary();
    void show_result(SavedResult result);
    void set_reference(std::optional<SavedResult> reference, std::string label);
    // One more result to compare with (PageChart::add_reference).
    void add_reference(SavedResult reference, std::string label);
    // Changes one setting of the next run (as the settings popover does).
    void set_parameter(const std::string& key, const SavedValue& value);
    // Opens the settings popover, the keyboard in `key`'s field ("": where
    // GTK puts it); its form as scripts see it (ParameterEditor::describe()).
    void show_settings(const std::string& key);
    [[nodiscard]] std::string settings_form() const { return settings_.describe(); }
    [[nodiscard]] bool has_reference() const noexcept { return chart_.has_reference(); }

    // What is shown (a live job as it stands, or the opened result).
    [[nodiscard]] std::optional<SavedResult> shown_result() const;
    [[nodiscard]] std::string export_graph(const std::string& path) const; // "" or a message
    // The message area's text ("" when hidden): the warnings and notes shown.
    [[nodiscard]] std::string message_text() const;
    [[nodiscard]] std::string status() const;                               // "kind:state:points"
    [[nodiscard]] std::string graph_title() const;
    // The shown run as text on the clipboard ("Copy Result as Text",
    // Ctrl+C): the folder Profiles page in CrystalDiskMark's layout, every
    // other page as diskbenchctl prints it (result_report.hpp). False when
    // nothing is shown.
    bool copy_report();
    // Its grid's MB/s cells, row by row, Read then Write (for scripts/tests).
    [[nodiscard]] std::vector<std::string> grid_cells() const;
    // The checks card's lines as shown ("✓ ..." / "⚠ ..."), "" when hidden.
    [[nodiscard]] std::string checks_card_text() const;
    // The line under the device Profiles grid: the disk's last steady-state
    // test beside its fresh figure (steady_beside_fresh.hpp); "" when hidden.
    [[nodiscard]] std::string steady_state_line() const;
    // The Surface page's error-scan card (FaultMap::describe()); "" elsewhere.
    [[nodiscard]] std::string fault_map() const { return fault_map_ ? fault_map_->describe() : std::string(); }

private:
    void build();
    // The view toggles and the kind's options, each a cell of the header's
    // flow box before the cell of what runs the page.
    void add_options(GtkWidget* controls, GtkWidget* actions);
    void describe_graph(const std::string& progress_text);
    void build_file_profile_controls(GtkWidget* header);
    void update_file_profile_controls();
    // The profile grids' unit menu (profile and file-profile pages).
    GtkWidget* build_unit_choice();
    static void on_unit_chosen(GObject* drop_down, GParamSpec*, gpointer self);
    void attach_job(const JobEntry& job);
    void detach();
    void rebuild_chart();
    void update_controls();
    void update_description();
    void update_messages(const std::vector<std::string>& warnings, const std::vector<std::string>& notes);
    void update_progress(const JobEntry* job, bool running);
    // The steady-state line for the selected disk, from the kept results
    // (again each time the page is shown: a steady-state run may have
    // ended on its own page since).
    void update_steady_state_line();
    static void on_page_mapped(GtkWidget*, gpointer self);
    [[nodiscard]] bool shows_job_of_selection(const JobEntry& job);
    [[nodiscard]] bool can_start();
    [[nodiscard]] bool destroy_only() const;
    // Whether a run started now writes the device: a write kind, or a read
    // kind whose write setting is on (PageModel::consent_when_writing).
    [[nodiscard]] bool writes() const;
    [[nodiscard]] std::string summary_of(const SavedValueMap& summary) const;
    // The checks card and the message area for a result's summary, warnings and notes.
    void show_result_messages(const SavedValueMap& summary, const std::vector<std::string>& warnings,
                              const std::vector<std::string>& notes,
                              const std::vector<contract::Message>& warning_messages = {});
    std::weak_ptr<bool> begin_start();
    void start_on_device(const DeviceEntry& device, const SavedValueMap& forced);
    void start_in_folder(const std::string& folder);
    void on_started(std::variant<std::string, CallError> reply, const std::string& selection, const std::string& folder);
    [[nodiscard]] SavedValueMap effective_parameters() const;
    [[nodiscard]] const JobEntry* live_job() const;
    static void on_start_clicked(GtkButton*, gpointer self);
    static void on_export_clicked(GtkButton*, gpointer self);
    static void on_view_toggled(GtkToggleButton*, gpointer self);
    static void on_messages_faded(GtkRevealer* revealer, GParamSpec*, gpointer);
    static void on_info_shown(GtkPopover*, gpointer self);
    static void on_settings_shown(GtkPopover*, gpointer self);

    const BenchmarkPage& page_;
    PageHost& host_;
    Ref<GtkWidget> root_;
    GtkWidget* start_button_ = nullptr;
    GtkWidget* progress_ = nullptr;
    GtkWidget* summary_label_ = nullptr;
    GtkWidget* checks_card_ = nullptr;  // the result's checks (result_checks.hpp); hidden when none
    std::unique_ptr<FaultMap> fault_map_; // the Surface page's error scan; null elsewhere
    GtkWidget* checks_label_ = nullptr;
    GtkWidget* steady_label_ = nullptr; // under the Profiles grid (PageModel::steady_state_beside); null elsewhere
    GtkWidget* fio_heading_ = nullptr; // hidden when no command does the same
    GtkWidget* message_revealer_ = nullptr;
    GtkWidget* message_label_ = nullptr;
    GtkWidget* info_label_ = nullptr;
    GtkWidget* fio_label_ = nullptr;
    std::vector<GtkWidget*> view_buttons_;
    // The file-profile header: test file size, passes (when the daemon has them), Copy as text.
    GtkWidget* size_choice_ = nullptr;
    GtkWidget* unit_choice_ = nullptr;
    GtkWidget* passes_label_ = nullptr;
    std::vector<SavedValue> size_values_;
    PageChart chart_;
    // The raw-write consent (DeviceWrite pages only).
    std::unique_ptr<WriteConsentCard> write_card_;
    GtkWidget* settings_button_ = nullptr;
    // Each change reaches the window, so the "parameter-form" action follows the form.
    // A changed setting may turn a page's writes on or off (the consent card).
    ParameterEditor settings_ { [this] {
        host_.page_changed();
        update_controls();
    } };

    std::string job_path_;               // the live job shown, or ""
    std::optional<SavedResult> opened_;  // a result shown from a file
    bool starting_ = false;
    bool stopping_ = false;
    bool focus_button_ = false; // Start/Stop was used: the button takes the focus when it can again
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

} // namespace diskbench::client
