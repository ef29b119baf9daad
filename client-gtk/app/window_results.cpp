// SPDX-License-Identifier: GPL-3.0-or-later
// The window's results: finished runs kept as recent results, result files
// opened, saved and exported, and the reference picker that overlays an
// earlier result.
#include "window.hpp"
#include "ui_file.hpp"

#include "results/job_result.hpp"
#include "results/recent_results.hpp"
#include "results/result_csv.hpp"
#include "text/printf_text.hpp"
#include "contract/result_file.hpp"
#include "contract/job_states.hpp"

#include <glib/gi18n-lib.h>
#include <unistd.h>

namespace diskbench::client {

namespace {

std::string reference_label(const SavedResult& result, bool same_disk)
{
    const std::string date = result_date_text(result.finished_at_us);
    if (result.target_kind == "directory")
        return result.folder_name() + ", " + date;
    if (same_disk)
        return std::string(_("This disk")) + ", " + date;
    std::string node;
    if (const auto found = result.device_info.find("node"); found != result.device_info.end())
        if (const auto* text = std::get_if<std::string>(&found->second))
            node = *text;
    return node + ", " + date;
}

} // namespace

void Window::connect_reference_picker(const UiFile& ui)
{
    reference_button_ = ui.widget("reference_button");
    reference_popover_ = ui.widget("reference_popover");
    reference_list_ = ui.widget("reference_list");
    g_signal_connect(reference_list_, "row-activated", G_CALLBACK(&Window::on_reference_row), this);
    g_signal_connect(reference_popover_, "show", G_CALLBACK(&Window::on_reference_popover_shown), this);
    g_signal_connect(reference_popover_, "closed", G_CALLBACK(&Window::on_reference_popover_closed), this);
}

void Window::keep_if_ours(const JobEntry& job)
{
    // Every run of this user that ended with data goes to the recent
    // results, once and complete (all announced samples here), whichever
    // page or device is shown: it is "this disk, last time" next time.
    const std::uint64_t points = job.point_count();
    const std::string key = job.path + "@" + std::to_string(job.started_at_us);
    // A set's runs are kept in the set's file (run_set_runner.hpp).
    if (job.owner != ::getuid() || job.state == contract::job_states::failed || points == 0 || !job.all_samples_here()
        || kept_jobs_.count(key) || run_set_->may_own(job))
        return;
    kept_jobs_.insert(key);
    std::string error;
    recent_.add(saved_result_from_job(job), error);
    if (!error.empty())
        toast(std::string(_("Could not keep the result:")) + " " + error);
    sidebar_->set_results(recent_.results());
    history_->refresh();
}

void Window::open_result_file(const std::string& path, bool as_reference, bool add, const std::string& only_kind)
{
    // The contract's reader checks size and nesting before parsing.
    auto loaded = contract::result_from_file(path);
    if (const auto* failure = std::get_if<LoadError>(&loaded)) {
        toast(failure->kind == LoadError::Kind::Unreadable
                  ? std::string(_("Could not open the result:")) + " " + path + ": " + failure->message
                  : failure->message);
        return;
    }
    SavedResult result = std::move(std::get<SavedResult>(loaded));
    if (!result.members.empty()) {
        open_set(std::move(result), as_reference, add, only_kind);
        return;
    }
    const std::string kind = result.kind;
    if (!place_result(std::move(result), as_reference, add)) {
        toast(_("This result is of a kind this version does not know."));
        return;
    }
    show_page(kind);
    page_changed();
}

bool Window::place_result(SavedResult result, bool as_reference, bool add)
{
    for (auto& page : pages_) {
        if (page->page().kind != result.kind)
            continue;
        // A folder result while a device is selected (or the other way round):
        // its page shows anyway.
        adw_view_stack_page_set_visible(adw_view_stack_get_page(ADW_VIEW_STACK(stack_), page->widget()), TRUE);
        if (as_reference) {
            const DeviceEntry* device = selected_device();
            const bool same = device && same_device(result.device_info, device_info_of(*device));
            const std::string label = reference_label(result, same);
            if (add)
                page->add_reference(std::move(result), label);
            else
                page->set_reference(std::move(result), label);
        } else {
            page->show_result(std::move(result));
        }
        return true;
    }
    return false;
}

void Window::open_set(SavedResult set, bool as_reference, bool add, const std::string& only_kind)
{
    // Each run on its page, as if opened on its own; the shown page stays
    // when the set has a run of its kind, else the first run's page shows.
    const BenchmarkPageView* shown = shown_page();
    std::string show = shown ? shown->page().kind : std::string();
    bool shown_has_run = false;
    std::string first;
    for (SavedResult& run : set.members) {
        if (!only_kind.empty() && run.kind != only_kind)
            continue;
        const std::string kind = run.kind; // the run is moved to its page
        if (!place_result(std::move(run), as_reference, add))
            continue;
        shown_has_run = shown_has_run || kind == show;
        if (first.empty())
            first = kind;
    }
    if (first.empty()) {
        toast(_("This result is of a kind this version does not know."));
        return;
    }
    show_page(shown_has_run ? show : first);
    page_changed();
}

void Window::clear_reference()
{
    if (BenchmarkPageView* page = shown_page())
        page->set_reference(std::nullopt, {});
}

void Window::save_shown_result(const std::string& path)
{
    BenchmarkPageView* page = shown_page();
    const std::optional<SavedResult> result = page ? page->shown_result() : std::nullopt;
    if (!result) {
        toast(_("There is no result on this page to save."));
        return;
    }
    const std::string error = write_file_atomically(path, result_to_json(*result));
    if (!error.empty())
        toast(std::string(_("Could not save the result:")) + " " + error);
    else
        toast(_("Result saved"));
}

void Window::export_shown_graph(const std::string& path)
{
    BenchmarkPageView* page = shown_page();
    if (!page) {
        toast(_("Pick a benchmark page to export its graph."));
        return;
    }
    const std::string error = page->export_graph(path);
    toast(error.empty() ? std::string(_("Graph exported")) : error);
}

void Window::export_shown_data(const std::string& path)
{
    BenchmarkPageView* page = shown_page();
    const std::optional<SavedResult> result = page ? page->shown_result() : std::nullopt;
    if (!result || result->series.empty()) {
        toast(_("Run a benchmark or open a result to export its data."));
        return;
    }
    const std::string prefix = path.ends_with(".csv") ? path.substr(0, path.size() - 4) : path;
    std::size_t written = 0;
    for (const CsvFile& file : result_csv(*result)) {
        if (const std::string error = write_file_atomically(csv_file_name(prefix, file), file.text);
            !error.empty()) {
            toast(error);
            return;
        }
        ++written;
    }
    toast(printf_text(g_dngettext(GETTEXT_PACKAGE, "Exported %zu CSV file", "Exported %zu CSV files", written),
                      written));
}

void Window::fill_reference_list()
{
    while (GtkWidget* child = gtk_widget_get_first_child(reference_list_))
        gtk_list_box_remove(GTK_LIST_BOX(reference_list_), child);
    reference_paths_.clear();
    reference_kinds_.clear();
    BenchmarkPageView* page = shown_page();
    auto add = [this](const std::string& text, const std::string& path, const std::string& kind) {
        GtkWidget* label = gtk_label_new(text.c_str());
        gtk_label_set_xalign(GTK_LABEL(label), 0);
        gtk_list_box_append(GTK_LIST_BOX(reference_list_), label);
        reference_paths_.push_back(path);
        reference_kinds_.push_back(kind);
    };
    /* TRANSLATORS: the first entry of the Compare popover: no earlier results drawn under this one */
    add(_("Compare with nothing"), "", "");
    if (!page)
        return;
    recent_.reload_if_changed();
    const DeviceEntry* device = selected_device();
    const SavedValueMap identity = device ? device_info_of(*device) : SavedValueMap {};
    // A set's run comes with its set's path: only that run is opened.
    for (const RecentResult* recent : recent_.for_kind(page->page().kind, identity))
        add(reference_label(recent->result, device && same_device(recent->result.device_info, identity)), recent->path,
            recent->result.kind);
}

void Window::on_reference_popover_shown(GtkPopover*, gpointer self)
{
    static_cast<Window*>(self)->fill_reference_list();
}

void Window::on_reference_row(GtkListBox*, GtkListBoxRow* row, gpointer self)
{
    auto* window = static_cast<Window*>(self);
    const int index = gtk_list_box_row_get_index(row);
    if (index < 0 || static_cast<std::size_t>(index) >= window->reference_paths_.size())
        return;
    const std::string path = window->reference_paths_[static_cast<std::size_t>(index)];
    const std::string kind = window->reference_kinds_[static_cast<std::size_t>(index)];
    gtk_popover_popdown(GTK_POPOVER(window->reference_popover_));
    if (path.empty())
        window->clear_reference();
    else
        window->open_result_file(path, true, true, kind);
}

} // namespace diskbench::client
