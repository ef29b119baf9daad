// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_page_view.hpp"

#include "kinds/kind_presentation.hpp"
#include "kinds/presentation_registry.hpp"

#include "../model/benchmark_description.hpp"
#include "../model/steady_beside_fresh.hpp"
#include "results/folder.hpp"
#include "results/job_result.hpp"
#include "text/latency_text.hpp"
#include "text/message_text.hpp"
#include "text/progress_text.hpp"
#include "results/result_checks.hpp"
#include "types/saved_values.hpp"
#include "text/printf_text.hpp"
#include "../model/pages/page_model.hpp"
#include "contract/job_states.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {
// Every latency figure (mean, min, percentiles to p99.9, max) on hover over
// the summary line, which has room for only the headline ones.
void set_latency_tooltip(GtkWidget* label, const SavedValueMap& summary)
{
    const std::string text = latency_tooltip_text(summary);
    gtk_widget_set_tooltip_text(label, text.empty() ? nullptr : text.c_str());
}
} // namespace

BenchmarkPageView::BenchmarkPageView(const BenchmarkPage& page, PageHost& host)
    : page_(page)
    , host_(host)
    , chart_(page)
{
    build();
    device_changed();
}

BenchmarkPageView::~BenchmarkPageView()
{
    *alive_ = false;
}

bool BenchmarkPageView::shows_job_of_selection(const JobEntry& job)
{
    if (page_.target == PageTarget::Directory) {
        const std::string folder = host_.selected_folder();
        return !folder.empty() && job.in_directory() && job.target == folder;
    }
    const DeviceEntry* device = host_.selected_device();
    return device && !job.in_directory() && job.device == device->path;
}

std::string BenchmarkPageView::summary_of(const SavedValueMap& summary) const
{
    // Some folder kinds say their figures as a device's (the folder's
    // queue-depth sweep names its best cell as the device's does), and so
    // do the raw writes whose kind has words of its own (the sustained
    // write's cache, steady state's figure beside the fresh one).
    const KindPresentation* presentation = kind_presentation(page_.kind);
    const bool own_words = presentation && (presentation->summary_parts || presentation->summary_line);
    return page_.target == PageTarget::Device || (page_.model && page_.model->device_summary)
            || (page_.target == PageTarget::DeviceWrite && own_words)
        ? device_summary_text(page_.kind, summary)
        : summary_line(summary);
}

const JobEntry* BenchmarkPageView::live_job() const
{
    DaemonClient* client = host_.client();
    return client && !job_path_.empty() ? client->job(job_path_) : nullptr;
}

void BenchmarkPageView::device_changed()
{
    detach();
    opened_.reset();
    stopping_ = false;
    DaemonClient* client = host_.client();
    if (client) {
        const JobEntry* latest = nullptr;
        for (const auto& [path, job] : client->jobs())
            if (job.kind == page_.kind && shows_job_of_selection(job)
                && (!latest || job.started_at_us > latest->started_at_us))
                latest = &job;
        if (latest)
            attach_job(*latest);
    }
    rebuild_chart();
    update_controls();
    update_steady_state_line();
}

void BenchmarkPageView::update_steady_state_line()
{
    if (!steady_label_)
        return;
    const DeviceEntry* device = host_.selected_device();
    RecentResults& recent = host_.recent_results();
    recent.reload_if_changed();
    const std::string line = device ? steady_state_beside_fresh(recent.results(), device_info_of(*device)) : std::string();
    gtk_label_set_text(GTK_LABEL(steady_label_), line.c_str());
    gtk_widget_set_visible(steady_label_, !line.empty());
}

void BenchmarkPageView::on_page_mapped(GtkWidget*, gpointer self)
{
    auto* page = static_cast<BenchmarkPageView*>(self);
    page->update_steady_state_line();
    page->host_.page_changed(); // the app's profile-steady state follows
}

std::string BenchmarkPageView::steady_state_line() const
{
    return steady_label_ && gtk_widget_get_visible(steady_label_) ? gtk_label_get_text(GTK_LABEL(steady_label_))
                                                                   : std::string();
}

void BenchmarkPageView::benchmarks_changed()
{
    update_file_profile_controls();
    update_controls();
}

void BenchmarkPageView::attach_job(const JobEntry& job)
{
    job_path_ = job.path;
    opened_.reset();
}

void BenchmarkPageView::detach()
{
    job_path_.clear();
}

void BenchmarkPageView::job_changed(const JobEntry& job)
{
    if (job.kind != page_.kind)
        return;
    if (job.path != job_path_) {
        // A new job on the shown device or folder (from us, busctl or another
        // user): follow it live, unless a result from a file is being looked at.
        if (!shows_job_of_selection(job) || !job.running() || opened_)
            return;
        const JobEntry* current = live_job();
        if (current && current->running())
            return;
        attach_job(job);
        rebuild_chart();
    } else if (chart_.series_changed(job)) {
        rebuild_chart(); // new series declared: routes change
    } else if (!job.running() && chart_.view().spec.x_scale == AxisScale::Categories) {
        rebuild_chart(); // the summary names the tests now
    }
    if (!job.running())
        stopping_ = false;
    update_controls();
    host_.page_changed();
}

void BenchmarkPageView::job_points_added(const JobEntry& job)
{
    if (job.path != job_path_)
        return;
    if (chart_.can_append(job))
        chart_.append(job);
    else
        rebuild_chart();
    update_controls();
    host_.page_changed();
}

void BenchmarkPageView::job_removed(const JobEntry& job)
{
    if (job.path != job_path_)
        return;
    // Keep showing what it measured: the daemon forgets ended jobs after a
    // while (or exits), the user should not see the graph vanish.
    detach();
    opened_ = saved_result_from_job(job);
    rebuild_chart();
    update_controls();
    host_.page_changed();
}

std::optional<SavedResult> BenchmarkPageView::shown_result() const
{
    if (const JobEntry* job = live_job())
        return saved_result_from_job(*job);
    return opened_;
}

void BenchmarkPageView::show_result(SavedResult result)
{
    detach();
    opened_ = std::move(result);
    rebuild_chart();
    update_controls();
    host_.page_changed();
}

void BenchmarkPageView::set_reference(std::optional<SavedResult> reference, std::string label)
{
    chart_.set_reference(std::move(reference), std::move(label));
    rebuild_chart();
    update_controls();
}

void BenchmarkPageView::add_reference(SavedResult reference, std::string label)
{
    chart_.add_reference(std::move(reference), std::move(label));
    rebuild_chart();
    update_controls();
}

void BenchmarkPageView::rebuild_chart()
{
    chart_.rebuild(live_job(), opened_, host_.selected_device());
}

void BenchmarkPageView::update_messages(const std::vector<std::string>& warnings, const std::vector<std::string>& notes)
{
    std::string text;
    for (const std::string& line : warnings)
        text += (text.empty() ? "" : "\n") + line;
    for (const std::string& line : notes)
        text += (text.empty() ? "" : "\n") + line;
    gtk_label_set_text(GTK_LABEL(message_label_), text.c_str());
    if (!text.empty())
        gtk_widget_set_visible(message_revealer_, TRUE);
    gtk_revealer_set_reveal_child(GTK_REVEALER(message_revealer_), !text.empty());
}

void BenchmarkPageView::show_result_messages(const SavedValueMap& summary, const std::vector<std::string>& warnings,
                                             const std::vector<std::string>& notes,
                                             const std::vector<contract::Message>& warning_messages)
{
    // The checks card matches the English texts; the message area shows
    // the rest in the user's language.
    const ResultChecks checks = result_checks(summary, warnings);
    gtk_label_set_text(GTK_LABEL(checks_label_), checks_text(checks).c_str());
    gtk_widget_set_visible(checks_card_, !checks.lines.empty());
    update_messages(localized_lines(warnings_outside(checks, warnings), warnings, warning_messages), notes);
}

std::string BenchmarkPageView::checks_card_text() const
{
    return gtk_widget_get_visible(checks_card_) ? gtk_label_get_text(GTK_LABEL(checks_label_)) : std::string();
}

void BenchmarkPageView::update_controls()
{
    const JobEntry* job = live_job();
    const bool running = job && job->running();
    gtk_button_set_label(GTK_BUTTON(start_button_), running ? _("Stop") : _("Start"));
    gtk_widget_remove_css_class(start_button_, running ? "suggested-action" : "destructive-action");
    gtk_widget_add_css_class(start_button_, running ? "destructive-action" : "suggested-action");
    gtk_widget_set_sensitive(start_button_, !starting_ && !stopping_ && (running || can_start()));
    if (write_card_) {
        // A device that cannot be written shows why instead of Start; a
        // page whose writes are a setting shows the card only with it on.
        const bool writing = writes();
        gtk_widget_set_visible(write_card_->widget(), writing);
        const bool writable
            = !writing || write_card_->update(host_.selected_device(), destroy_only(), running || starting_);
        gtk_widget_set_visible(start_button_, writable);
    }
    // After Start the button is Stop, after Stop Start again: it was
    // insensitive while the daemon answered (which drops the focus), so it
    // takes the focus back once it can be pressed, wherever Start or Stop
    // came from (F5, Escape, a click).
    if (focus_button_ && !starting_ && !stopping_ && gtk_widget_is_sensitive(start_button_)
        && gtk_widget_get_mapped(start_button_)) {
        focus_button_ = false;
        gtk_widget_grab_focus(start_button_);
    }
    update_progress(job, running);
    chart_.show_running_bar(job, host_.selected_device(), job ? job->progress : 0, running);
    chart_.redraw_soon();
}

void BenchmarkPageView::update_progress(const JobEntry* job, bool running)
{
    JobProgress progress;
    if (job) {
        progress = job_progress(*job, g_get_real_time());
        std::vector<std::string> notes = localized_lines(job->notes, job->notes, job->note_messages);
        const std::string folder = job->in_directory() ? folder_display_name(job->target) : std::string();
        if (const std::optional<ErrorText> failure = job_error_text(*job, folder))
            notes = { failure->message };
        show_result_messages(job->summary, job->warnings, notes, job->warning_messages);
        gtk_label_set_text(GTK_LABEL(summary_label_), summary_of(job->summary).c_str());
        set_latency_tooltip(summary_label_, job->summary);
    } else if (opened_) {
        progress.fraction = opened_->state == contract::job_states::finished ? 1 : 0;
        progress.text = printf_text(_("Result of %s"), result_date_text(opened_->finished_at_us).c_str());
        show_result_messages(opened_->summary, opened_->warnings,
                             localized_lines(opened_->notes, opened_->notes, opened_->note_messages),
                             opened_->warning_messages);
        gtk_label_set_text(GTK_LABEL(summary_label_), summary_of(opened_->summary).c_str());
        set_latency_tooltip(summary_label_, opened_->summary);
    } else {
        const bool selected = page_.target == PageTarget::Directory ? !host_.selected_folder().empty()
                                                                    : host_.selected_device() != nullptr;
        progress.text = starting_ ? _("Waiting for authorization…")
            : selected            ? _("Ready")
            : page_.target == PageTarget::Directory ? _("No folder selected")
                                                    : _("No device selected");
        show_result_messages({}, {}, {});
        gtk_label_set_text(GTK_LABEL(summary_label_), "");
        set_latency_tooltip(summary_label_, {});
    }
    if (fault_map_) {
        const DeviceEntry* device = host_.selected_device();
        fault_map_->show(shown_result(), device && job ? device->size : 0);
    }
    if (running && progress.pulse)
        gtk_progress_bar_pulse(GTK_PROGRESS_BAR(progress_));
    else
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(progress_), progress.fraction);
    gtk_progress_bar_set_text(GTK_PROGRESS_BAR(progress_), progress.text.c_str());
    describe_graph(progress.text);
}

void BenchmarkPageView::describe_graph(const std::string& progress_text)
{
    // For Orca, the graph is its headline figures once there are some
    // (they change when a run ends), else what the page is doing.
    const char* summary = gtk_label_get_text(GTK_LABEL(summary_label_));
    const std::string view = page_.generic() || !chart_.view().label ? std::string() : _(chart_.view().label);
    // TRANSLATORS: the accessible name of a page's graph: "Seek graph" or "Random graph: IOPS"
    const std::string name = view.empty() ? printf_text(_("%s graph"), _(page_.title.c_str()))
                                          : printf_text(_("%s graph: %s"), _(page_.title.c_str()), view.c_str());
    chart_.describe(name, summary && *summary ? summary : progress_text);
}

SavedValueMap BenchmarkPageView::effective_parameters() const
{
    SavedValueMap parameters;
    if (DaemonClient* client = host_.client())
        if (const BenchmarkInfo* info = client->benchmark(page_.kind))
            for (const ParameterInfo& p : info->parameters)
                parameters[p.key] = p.default_value;
    for (const auto& [key, value] : settings_.changed())
        parameters[key] = value;
    return parameters;
}

void BenchmarkPageView::update_description()
{
    const DeviceEntry* device = host_.selected_device();
    // Folder kinds name the folder in their commands.
    std::string target = device ? device->node : "/dev/sdX";
    if (page_.target == PageTarget::Directory)
        target = host_.selected_folder().empty() ? std::string("FOLDER") : host_.selected_folder();
    const BenchmarkDescription d = describe_benchmark(page_.kind, effective_parameters(), target,
                                                      device ? device->logical_block_size : 512);
    gtk_label_set_text(GTK_LABEL(info_label_), d.what.c_str());
    std::string commands;
    for (const std::string& line : d.fio_commands)
        commands += (commands.empty() ? "" : "\n\n") + line;
    gtk_label_set_text(GTK_LABEL(fio_label_), commands.c_str());
    gtk_widget_set_visible(fio_heading_, !commands.empty());
    gtk_widget_set_visible(fio_label_, !commands.empty());
}

void BenchmarkPageView::focus_primary()
{
    if (gtk_widget_get_visible(start_button_) && gtk_widget_is_sensitive(start_button_))
        gtk_widget_grab_focus(start_button_);
    else
        gtk_widget_child_focus(root_.get(), GTK_DIR_TAB_FORWARD);
}

std::string BenchmarkPageView::graph_title() const
{
    std::string title = _(page_.title.c_str());
    if (const std::optional<SavedResult> result = shown_result(); result && result->target_kind == "directory") {
        title += " — " + result->target;
        title += " — " + result_date_text(result->finished_at_us ? result->finished_at_us : result->started_at_us);
    } else if (result) {
        if (const auto node = result->device_info.find("node"); node != result->device_info.end())
            if (const auto* text = std::get_if<std::string>(&node->second))
                title += " — " + *text;
        if (const auto model = result->device_info.find("model"); model != result->device_info.end())
            if (const auto* text = std::get_if<std::string>(&model->second); text && !text->empty())
                title += " (" + *text + ")";
        title += " — " + result_date_text(result->finished_at_us ? result->finished_at_us : result->started_at_us);
    }
    return title;
}

std::string BenchmarkPageView::export_graph(const std::string& path) const
{
    const auto format = export_format_for(path);
    if (!format)
        return _("Pick a file name ending in .png, .svg or .pdf.");
    return export_chart(chart_.chart(), path, *format, graph_title(), 1200, 700, ChartTheme::light());
}

std::string BenchmarkPageView::message_text() const
{
    if (!gtk_revealer_get_reveal_child(GTK_REVEALER(message_revealer_)))
        return {};
    return gtk_label_get_text(GTK_LABEL(message_label_));
}

std::string BenchmarkPageView::status() const
{
    std::string state = "idle";
    std::size_t points = 0;
    if (const JobEntry* job = live_job()) {
        state = job->state;
        for (const auto& series : job->points)
            points += series.size();
    } else if (opened_) {
        state = opened_->state;
        for (const auto& series : opened_->series)
            points += series.points.size();
    }
    return page_.kind + ":" + state + ":" + std::to_string(points);
}

void BenchmarkPageView::on_export_clicked(GtkButton* button, gpointer)
{
    gtk_widget_activate_action(GTK_WIDGET(button), "app.export-graph-dialog", nullptr);
}

void BenchmarkPageView::on_view_toggled(GtkToggleButton* button, gpointer self)
{
    auto* page = static_cast<BenchmarkPageView*>(self);
    if (!gtk_toggle_button_get_active(button))
        return;
    for (std::size_t i = 0; i < page->view_buttons_.size(); ++i)
        if (page->view_buttons_[i] == GTK_WIDGET(button) && page->chart_.view_index() != i) {
            page->chart_.select_view(i);
            page->rebuild_chart();
            page->update_controls();
        }
}

void BenchmarkPageView::set_parameter(const std::string& key, const SavedValue& value)
{
    settings_.set_value(key, value);
    update_file_profile_controls();
}

void BenchmarkPageView::show_settings(const std::string& key)
{
    if (!settings_button_)
        return;
    gtk_menu_button_popup(GTK_MENU_BUTTON(settings_button_)); // builds the form (on_settings_shown)
    if (!key.empty())
        settings_.focus(key);
}

void BenchmarkPageView::on_settings_shown(GtkPopover*, gpointer self)
{
    auto* page = static_cast<BenchmarkPageView*>(self);
    if (DaemonClient* client = page->host_.client())
        if (const BenchmarkInfo* info = client->benchmark(page->page_.kind)) {
            // A write's mode and confirmation are asked on the page, in
            // words (the consent card), also where writing is a setting.
            const bool card = page->page_.target == PageTarget::DeviceWrite
                || (page->page_.model && page->page_.model->consent_when_writing);
            std::vector<ParameterInfo> parameters;
            for (const ParameterInfo& p : info->parameters)
                if (!card || (p.key != "mode" && p.key != "confirm"))
                    parameters.push_back(p);
            page->settings_.set_parameters(parameters);
        }
}

void BenchmarkPageView::on_info_shown(GtkPopover*, gpointer self)
{
    static_cast<BenchmarkPageView*>(self)->update_description();
}

} // namespace diskbench::client
