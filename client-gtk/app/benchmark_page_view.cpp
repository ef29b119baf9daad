// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_page_view.hpp"

#include "../model/benchmark_description.hpp"
#include "../model/folder.hpp"
#include "../model/job_result.hpp"
#include "../model/write_consent.hpp"
#include "../model/saved_values.hpp"
#include "../chart/value_format.hpp"

#include "contract/benchmark_kinds.hpp"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace kinds = contract::kinds;

namespace {

std::string printf_string(const char* format, auto... args)
{
    gchar* text = g_strdup_printf(format, args...);
    std::string result = text;
    g_free(text);
    return result;
}

std::string duration_text(double seconds)
{
    // The daemon's timestamps are not ours to trust blindly: no casts of
    // negative or absurd values.
    seconds = std::isfinite(seconds) ? std::clamp(seconds, 0.0, 1e7) : 0.0;
    if (seconds < 60)
        return printf_string(_("%d s"), static_cast<int>(std::ceil(seconds)));
    if (seconds < 3600)
        return printf_string(_("%d min %d s"), static_cast<int>(seconds / 60), static_cast<int>(seconds) % 60);
    return printf_string(_("%d h %d min"), static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60) % 60);
}

// The headline figures of a finished run, e.g. "1 234 MB/s · p50 85 µs · p99 1.0 ms".
std::string summary_text(const std::string& kind, const SavedValueMap& summary)
{
    std::vector<std::string> parts;
    const double throughput = number_of(summary, "throughput_mb_s", NAN);
    if (!std::isnan(throughput))
        parts.push_back(format_value(throughput, Unit::MegabytesPerSecond));
    if (kind == kinds::qd_sweep) {
        const double best = number_of(summary, "best_iops", NAN);
        if (!std::isnan(best))
            parts.push_back(printf_string(_("best %s (queue depth %d, thread count %d)"),
                                          format_value(best, Unit::Iops).c_str(),
                                          static_cast<int>(number_of(summary, "best_queue_depth", 0)),
                                          static_cast<int>(number_of(summary, "best_threads", 0))));
    }
    const double p50 = number_of(summary, "latency_p50_us", NAN);
    const double p99 = number_of(summary, "latency_p99_us", NAN);
    if (!std::isnan(p50))
        parts.push_back(std::string(_("p50")) + " " + format_value(p50, Unit::Microseconds));
    if (!std::isnan(p99))
        parts.push_back(std::string(_("p99")) + " " + format_value(p99, Unit::Microseconds));
    std::string text;
    for (const std::string& part : parts)
        text += (text.empty() ? "" : "  ·  ") + part;
    return text;
}

std::vector<std::string> names_of(const std::vector<SeriesDeclaration>& series)
{
    std::vector<std::string> names;
    for (const SeriesDeclaration& s : series)
        names.push_back(s.name);
    return names;
}

} // namespace

BenchmarkPageView::BenchmarkPageView(const BenchmarkPage& page, PageHost& host)
    : page_(page)
    , host_(host)
{
    build();
    device_changed();
}

BenchmarkPageView::~BenchmarkPageView()
{
    *alive_ = false;
}

void BenchmarkPageView::build()
{
    root_ = Ref<GtkWidget>::take_floating(gtk_box_new(GTK_ORIENTATION_VERTICAL, 12));
    GtkWidget* box = root_.get();
    gtk_widget_set_margin_start(box, 18);
    gtk_widget_set_margin_end(box, 18);
    gtk_widget_set_margin_top(box, 12);
    gtk_widget_set_margin_bottom(box, 12);

    GtkWidget* header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    GtkWidget* titles = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2);
    gtk_widget_set_hexpand(titles, TRUE);
    GtkWidget* title = gtk_label_new(_(page_.title.c_str()));
    gtk_widget_add_css_class(title, "title-2");
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    GtkWidget* summary = gtk_label_new(_(page_.summary.c_str()));
    gtk_widget_add_css_class(summary, "dim-label");
    gtk_label_set_xalign(GTK_LABEL(summary), 0);
    gtk_label_set_wrap(GTK_LABEL(summary), TRUE);
    gtk_box_append(GTK_BOX(titles), title);
    gtk_box_append(GTK_BOX(titles), summary);
    gtk_box_append(GTK_BOX(header), titles);

    if (page_.views.size() > 1) {
        GtkWidget* linked = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
        gtk_widget_add_css_class(linked, "linked");
        gtk_widget_set_valign(linked, GTK_ALIGN_CENTER);
        GtkToggleButton* group = nullptr;
        for (const PageView& view : page_.views) {
            GtkWidget* button = gtk_toggle_button_new_with_label(_(view.label));
            if (group)
                gtk_toggle_button_set_group(GTK_TOGGLE_BUTTON(button), group);
            else
                group = GTK_TOGGLE_BUTTON(button);
            g_signal_connect(button, "toggled", G_CALLBACK(&BenchmarkPageView::on_view_toggled), this);
            view_buttons_.push_back(button);
            gtk_box_append(GTK_BOX(linked), button);
        }
        gtk_toggle_button_set_active(group, TRUE);
        gtk_box_append(GTK_BOX(header), linked);
    }

    // What the test does, with fio command lines to check our figures.
    GtkWidget* info_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_widget_set_size_request(info_box, 460, -1);
    info_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(info_label_), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(info_label_), 60);
    gtk_label_set_xalign(GTK_LABEL(info_label_), 0);
    GtkWidget* fio_heading = gtk_label_new(_("The same with fio:"));
    gtk_widget_add_css_class(fio_heading, "heading");
    gtk_label_set_xalign(GTK_LABEL(fio_heading), 0);
    fio_label_ = gtk_label_new(nullptr);
    gtk_label_set_selectable(GTK_LABEL(fio_label_), TRUE);
    gtk_label_set_wrap(GTK_LABEL(fio_label_), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(fio_label_), PANGO_WRAP_WORD_CHAR);
    gtk_label_set_xalign(GTK_LABEL(fio_label_), 0);
    gtk_widget_add_css_class(fio_label_, "monospace");
    GtkWidget* fio_scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(fio_scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(fio_scroll), 260);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(fio_scroll), TRUE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(fio_scroll), fio_label_);
    gtk_box_append(GTK_BOX(info_box), info_label_);
    gtk_box_append(GTK_BOX(info_box), fio_heading);
    gtk_box_append(GTK_BOX(info_box), fio_scroll);
    GtkWidget* popover = gtk_popover_new();
    gtk_popover_set_child(GTK_POPOVER(popover), info_box);
    g_signal_connect(popover, "show", G_CALLBACK(&BenchmarkPageView::on_info_shown), this);
    GtkWidget* info = gtk_menu_button_new();
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(info), "dialog-information-symbolic");
    gtk_menu_button_set_popover(GTK_MENU_BUTTON(info), popover);
    gtk_widget_set_tooltip_text(info, _("What this test does"));
    gtk_widget_set_valign(info, GTK_ALIGN_CENTER);
    gtk_box_append(GTK_BOX(header), info);

    // The run's settings, from the daemon's list of parameters.
    GtkWidget* settings_popover = gtk_popover_new();
    gtk_popover_set_child(GTK_POPOVER(settings_popover), settings_.widget());
    g_signal_connect(settings_popover, "show", G_CALLBACK(&BenchmarkPageView::on_settings_shown), this);
    GtkWidget* settings = gtk_menu_button_new();
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(settings), "emblem-system-symbolic");
    gtk_menu_button_set_popover(GTK_MENU_BUTTON(settings), settings_popover);
    gtk_widget_set_tooltip_text(settings, _("Settings of the next run"));
    gtk_widget_set_valign(settings, GTK_ALIGN_CENTER);
    gtk_box_append(GTK_BOX(header), settings);

    GtkWidget* export_button = gtk_button_new_from_icon_name("image-x-generic-symbolic");
    gtk_widget_set_tooltip_text(export_button, _("Export graph…"));
    gtk_widget_set_valign(export_button, GTK_ALIGN_CENTER);
    g_signal_connect(export_button, "clicked", G_CALLBACK(&BenchmarkPageView::on_export_clicked), this);
    gtk_box_append(GTK_BOX(header), export_button);

    start_button_ = gtk_button_new_with_label(_("Start"));
    gtk_widget_set_valign(start_button_, GTK_ALIGN_CENTER);
    gtk_widget_set_size_request(start_button_, 96, -1);
    g_signal_connect(start_button_, "clicked", G_CALLBACK(&BenchmarkPageView::on_start_clicked), this);
    gtk_box_append(GTK_BOX(header), start_button_);
    gtk_box_append(GTK_BOX(box), header);

    // Warnings and notes of the run, in the page (libadwaita 1.2 has no AdwBanner).
    message_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(message_label_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(message_label_), 0);
    GtkWidget* message_box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8);
    gtk_widget_add_css_class(message_box, "card");
    gtk_widget_set_margin_bottom(message_box, 0);
    GtkWidget* icon = gtk_image_new_from_icon_name("dialog-warning-symbolic");
    gtk_widget_set_margin_start(icon, 12);
    gtk_widget_add_css_class(icon, "warning");
    gtk_widget_set_margin_top(message_label_, 8);
    gtk_widget_set_margin_bottom(message_label_, 8);
    gtk_widget_set_margin_end(message_label_, 12);
    gtk_box_append(GTK_BOX(message_box), icon);
    gtk_box_append(GTK_BOX(message_box), message_label_);
    message_revealer_ = gtk_revealer_new();
    gtk_revealer_set_child(GTK_REVEALER(message_revealer_), message_box);
    gtk_box_append(GTK_BOX(box), message_revealer_);

    if (page_.target == PageTarget::DeviceWrite)
        build_write_card(box);

    if (page_.kind == kinds::profile) {
        profile_grid_ = std::make_unique<ProfileGrid>();
        gtk_box_append(GTK_BOX(box), profile_grid_->widget());
    }

    GtkWidget* frame = gtk_frame_new(nullptr);
    gtk_frame_set_child(GTK_FRAME(frame), graph_.widget());
    gtk_box_append(GTK_BOX(box), frame);

    GtkWidget* footer = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    progress_ = gtk_progress_bar_new();
    gtk_progress_bar_set_show_text(GTK_PROGRESS_BAR(progress_), TRUE);
    summary_label_ = gtk_label_new(nullptr);
    gtk_label_set_selectable(GTK_LABEL(summary_label_), TRUE);
    // Some runs have many figures (small-files: four phases, MB/s and
    // files/s): unwrapped, the line's width would become the window's
    // minimum and fold the sidebar away.
    gtk_label_set_wrap(GTK_LABEL(summary_label_), TRUE);
    gtk_label_set_justify(GTK_LABEL(summary_label_), GTK_JUSTIFY_CENTER);
    gtk_widget_add_css_class(summary_label_, "numeric");
    gtk_box_append(GTK_BOX(footer), progress_);
    gtk_box_append(GTK_BOX(footer), summary_label_);
    gtk_box_append(GTK_BOX(box), footer);
    graph_.chart().set_placeholder(page_.target == PageTarget::Directory
                                       ? _("No results yet. Pick a folder and press Start.")
                                       : _("No results yet. Pick a device and press Start."));
}

void BenchmarkPageView::build_write_card(GtkWidget* box)
{
    // The consent of a raw write: which device, keep or erase its data,
    // and for erasing the device's serial typed in.
    write_card_ = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    gtk_widget_add_css_class(write_card_, "card");
    GtkWidget* top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10);
    GtkWidget* icon = gtk_image_new_from_icon_name("dialog-warning-symbolic");
    gtk_widget_add_css_class(icon, "warning");
    gtk_widget_set_valign(icon, GTK_ALIGN_START);
    write_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(write_label_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(write_label_), 0);
    gtk_widget_set_hexpand(write_label_, TRUE);
    gtk_box_append(GTK_BOX(top), icon);
    gtk_box_append(GTK_BOX(top), write_label_);
    gtk_box_append(GTK_BOX(write_card_), top);

    GtkWidget* modes = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    keep_button_ = gtk_check_button_new_with_mnemonic(_("_Keep data (read and write back)"));
    erase_button_ = gtk_check_button_new_with_mnemonic(_("_Erase data"));
    gtk_check_button_set_group(GTK_CHECK_BUTTON(erase_button_), GTK_CHECK_BUTTON(keep_button_));
    gtk_check_button_set_active(GTK_CHECK_BUTTON(keep_button_), TRUE);
    // Both: GTK deactivates the old member of a group (its "toggled") before
    // it activates the new one, so keep's signal alone comes too early.
    g_signal_connect(keep_button_, "toggled", G_CALLBACK(&BenchmarkPageView::on_write_mode_toggled), this);
    g_signal_connect(erase_button_, "toggled", G_CALLBACK(&BenchmarkPageView::on_write_mode_toggled), this);
    confirm_entry_ = gtk_entry_new();
    gtk_widget_set_hexpand(confirm_entry_, TRUE);
    g_signal_connect(confirm_entry_, "changed", G_CALLBACK(&BenchmarkPageView::on_confirm_changed), this);
    gtk_box_append(GTK_BOX(modes), keep_button_);
    gtk_box_append(GTK_BOX(modes), erase_button_);
    gtk_box_append(GTK_BOX(modes), confirm_entry_);
    gtk_box_append(GTK_BOX(write_card_), modes);

    blocker_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(blocker_label_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(blocker_label_), 0);
    gtk_widget_add_css_class(blocker_label_, "error");
    gtk_box_append(GTK_BOX(write_card_), blocker_label_);
    for (GtkWidget* child = gtk_widget_get_first_child(write_card_); child; child = gtk_widget_get_next_sibling(child)) {
        gtk_widget_set_margin_start(child, 12);
        gtk_widget_set_margin_end(child, 12);
    }
    gtk_widget_set_margin_top(gtk_widget_get_first_child(write_card_), 10);
    gtk_widget_set_margin_bottom(blocker_label_, 10);
    gtk_box_append(GTK_BOX(box), write_card_);
}

bool BenchmarkPageView::destroy_only() const
{
    if (DaemonClient* client = host_.client())
        if (const BenchmarkInfo* info = client->benchmark(page_.kind))
            return erases_only(*info);
    return false;
}

void BenchmarkPageView::update_write_card(bool running)
{
    if (!write_card_)
        return;
    const DeviceEntry* device = host_.selected_device();
    if (destroy_only())
        gtk_check_button_set_active(GTK_CHECK_BUTTON(erase_button_), TRUE);
    // Erasing is the only mode there: no choice to show, only the entry.
    gtk_widget_set_visible(keep_button_, !destroy_only());
    gtk_widget_set_visible(erase_button_, !destroy_only());
    const bool erase = gtk_check_button_get_active(GTK_CHECK_BUTTON(erase_button_));
    std::string text;
    if (device) {
        const std::string name = write_device_label(*device);
        text = erase ? printf_string(_("This test writes random data over %s. Everything on it is lost."), name.c_str())
                     : printf_string(_("This test writes to %s. It reads each stretch first and writes the same "
                                       "data back, so nothing should be lost, but a crash or power cut while it "
                                       "runs can damage the data: have a backup."),
                                     name.c_str());
    }
    gtk_label_set_text(GTK_LABEL(write_label_), text.c_str());
    gtk_widget_set_visible(confirm_entry_, erase);
    if (device) {
        const std::string expected = write_confirmation(*device);
        const std::string hint = device->serial.empty()
            ? printf_string(_("Type the device node %s to confirm"), expected.c_str())
            : printf_string(_("Type the serial number %s to confirm"), expected.c_str());
        gtk_entry_set_placeholder_text(GTK_ENTRY(confirm_entry_), hint.c_str());
    }
    const std::string blocker = device && !running ? write_blocker(*device) : std::string();
    gtk_label_set_text(GTK_LABEL(blocker_label_), blocker.c_str());
    gtk_widget_set_visible(blocker_label_, !blocker.empty());
    // A device that cannot be written shows why instead of Start.
    gtk_widget_set_visible(start_button_, blocker.empty());
    gtk_widget_set_sensitive(keep_button_, !running);
    gtk_widget_set_sensitive(erase_button_, !running);
    gtk_widget_set_sensitive(confirm_entry_, !running);
}

void BenchmarkPageView::on_write_mode_toggled(GtkCheckButton* button, gpointer self)
{
    auto* view = static_cast<BenchmarkPageView*>(self);
    view->update_controls();
    // Erasing is chosen: what the user must do next is type the name.
    if (GTK_WIDGET(button) == view->erase_button_ && gtk_check_button_get_active(button))
        gtk_widget_grab_focus(view->confirm_entry_);
}

void BenchmarkPageView::on_confirm_changed(GtkEditable*, gpointer self)
{
    static_cast<BenchmarkPageView*>(self)->update_controls();
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

bool BenchmarkPageView::can_start()
{
    if (!host_.client())
        return false;
    if (page_.target == PageTarget::Directory)
        return !host_.selected_folder().empty();
    const DeviceEntry* device = host_.selected_device();
    if (!device)
        return false;
    if (page_.target != PageTarget::DeviceWrite)
        return true;
    if (!write_blocker(*device).empty())
        return false;
    return !gtk_check_button_get_active(GTK_CHECK_BUTTON(erase_button_))
        || write_confirmed(*device, gtk_editable_get_text(GTK_EDITABLE(confirm_entry_)));
}

std::string BenchmarkPageView::summary_of(const SavedValueMap& summary) const
{
    return page_.target == PageTarget::Device ? summary_text(page_.kind, summary) : summary_line(summary);
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
}

void BenchmarkPageView::benchmarks_changed()
{
    update_controls();
}

void BenchmarkPageView::attach_job(const JobEntry& job)
{
    job_path_ = job.path;
    opened_.reset();
    appended_.clear();
}

void BenchmarkPageView::detach()
{
    job_path_.clear();
    appended_.clear();
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
    } else if (job.series.size() != appended_.size()) {
        rebuild_chart(); // new series declared: routes change
    } else if (!job.running() && view().spec.x_scale == AxisScale::Categories) {
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
    if (job.series.size() != appended_.size() || page_.kind == kinds::profile) {
        // New series change the routes; the profile table is rebuilt whole
        // (a handful of points).
        rebuild_chart();
    } else {
        // Only what arrived since the last update goes to the chart, so the
        // chart's kept envelopes are updated, not recomputed.
        const std::vector<SeriesRoute> routes = route_series(view(), names_of(job.series));
        for (std::size_t i = 0; i < routes.size() && i < job.points.size(); ++i) {
            const std::span<const SeriesPoint> fresh = std::span(job.points[i]).subspan(std::min(appended_[i], job.points[i].size()));
            if (routes[i].line)
                graph_.chart().append_points(*routes[i].line, fresh);
            if (routes[i].band_min)
                graph_.chart().append_band(*routes[i].band_min, fresh, {});
            if (routes[i].band_max)
                graph_.chart().append_band(*routes[i].band_max, {}, fresh);
            appended_[i] = job.points[i].size();
        }
        graph_.changed();
    }
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
    reference_ = std::move(reference);
    reference_label_ = std::move(label);
    rebuild_chart();
    update_controls();
}

void BenchmarkPageView::rebuild_chart()
{
    Chart& chart = graph_.chart();
    const DeviceEntry* device = host_.selected_device();
    if (page_.generic()) {
        // Drawn from what the run declares (a reference of the same kind has the same series).
        const std::optional<SavedResult> shown = shown_result();
        generic_view_ = generic_view(shown && !shown->series.empty() ? shown->series
                                         : reference_                 ? reference_->series
                                                                      : std::vector<SavedSeries> {});
    }
    std::vector<ChartSeries> current;
    SavedValueMap parameters, summary;
    std::uint64_t size = device ? device->size : 0;
    if (const JobEntry* job = live_job()) {
        const SavedResult result = saved_result_from_job(*job);
        current = chart_series_for(view(), result.series, _("This run"));
        parameters = job->parameters;
        summary = job->summary;
        appended_.assign(job->series.size(), 0);
        for (std::size_t i = 0; i < job->series.size() && i < job->points.size(); ++i)
            appended_[i] = job->points[i].size();
    } else if (opened_) {
        current = chart_series_for(view(), opened_->series, result_date_text(opened_->finished_at_us));
        parameters = opened_->parameters;
        summary = opened_->summary;
        if (const auto found = opened_->device_info.find("size"); found != opened_->device_info.end())
            if (const auto* value = std::get_if<std::int64_t>(&found->second))
                size = static_cast<std::uint64_t>(*value);
    }
    ChartSpec spec = spec_for(view(), page_.kind, parameters, summary, page_.target == PageTarget::Device ? size : 0);
    if (spec.x_scale == AxisScale::Categories && page_.target != PageTarget::Device) {
        const std::optional<SavedResult> shown = shown_result();
        spec.categories = test_categories(summary, shown ? shown->series : std::vector<SavedSeries> {});
    }
    if (reference_ && spec.categories.empty() && page_.kind == kinds::profile)
        spec = spec_for(view(), page_.kind, reference_->parameters, reference_->summary, size);
    chart.set_spec(spec);
    chart.set_current(std::move(current));
    if (live_job() && view().band_min.empty()) {
        // The run's size is known up front: room for all its points, so the
        // append that would outgrow the storage does not cost a slow frame.
        const std::int64_t expected = page_.kind == kinds::seek ? integer_of(parameters, "count", 0)
            : page_.kind == kinds::surface                      ? integer_of(parameters, "buckets", 0)
                                                           : 0;
        if (expected > 0 && expected <= (1 << 24))
            chart.reserve_points(0, static_cast<std::size_t>(expected));
    }
    if (reference_)
        chart.set_reference(chart_series_for(view(), reference_->series, reference_label_));
    else
        chart.clear_reference();
    if (profile_grid_) {
        const std::optional<SavedResult> shown = shown_result();
        profile_grid_->set(spec.categories, shown ? shown->series : std::vector<SavedSeries> {},
                           reference_ ? &reference_->series : nullptr);
    }
    graph_.redraw_now();
}

void BenchmarkPageView::update_messages(const std::vector<std::string>& warnings, const std::vector<std::string>& notes)
{
    std::string text;
    for (const std::string& line : warnings)
        text += (text.empty() ? "" : "\n") + line;
    for (const std::string& line : notes)
        text += (text.empty() ? "" : "\n") + line;
    gtk_label_set_text(GTK_LABEL(message_label_), text.c_str());
    gtk_revealer_set_reveal_child(GTK_REVEALER(message_revealer_), !text.empty());
}

void BenchmarkPageView::update_controls()
{
    const JobEntry* job = live_job();
    const bool running = job && job->running();
    const DeviceEntry* device = host_.selected_device();
    const bool selected = page_.target == PageTarget::Directory ? !host_.selected_folder().empty()
                                                                : host_.selected_device() != nullptr;
    gtk_button_set_label(GTK_BUTTON(start_button_), running ? _("Stop") : _("Start"));
    gtk_widget_remove_css_class(start_button_, running ? "suggested-action" : "destructive-action");
    gtk_widget_add_css_class(start_button_, running ? "destructive-action" : "suggested-action");
    gtk_widget_set_sensitive(start_button_, !starting_ && !stopping_ && (running || can_start()));
    update_write_card(running || starting_);

    std::string progress_text;
    double fraction = 0;
    if (job) {
        fraction = job->progress;
        if (running) {
            const double elapsed = static_cast<double>(g_get_real_time() - static_cast<gint64>(job->started_at_us)) / 1e6;
            progress_text = printf_string(_("%d %%"), static_cast<int>(fraction * 100));
            if (fraction > 0.02 && elapsed > 1)
                progress_text += "  ·  " + printf_string(_("about %s left"),
                                                         duration_text(elapsed / fraction * (1 - fraction)).c_str());
        } else if (job->state == "finished") {
            fraction = 1;
            const double took = job->finished_at_us > job->started_at_us
                ? static_cast<double>(job->finished_at_us - job->started_at_us) / 1e6
                : 0.0;
            progress_text = printf_string(_("Finished in %s"), duration_text(took).c_str());
        } else if (job->state == "cancelled") {
            progress_text = _("Stopped");
        } else if (job->state == "failed") {
            progress_text = _("Failed");
        }
        std::vector<std::string> notes = job->notes;
        const std::string folder = job->in_directory() ? folder_display_name(job->target) : std::string();
        if (const std::optional<ErrorText> failure = job_error_text(*job, folder))
            notes = { failure->message };
        update_messages(job->warnings, notes);
        gtk_label_set_text(GTK_LABEL(summary_label_), summary_of(job->summary).c_str());
    } else if (opened_) {
        fraction = opened_->state == "finished" ? 1 : 0;
        progress_text = printf_string(_("Result of %s"), result_date_text(opened_->finished_at_us).c_str());
        update_messages(opened_->warnings, opened_->notes);
        gtk_label_set_text(GTK_LABEL(summary_label_), summary_of(opened_->summary).c_str());
    } else {
        progress_text = starting_ ? _("Waiting for authorization…")
            : selected            ? _("Ready")
            : page_.target == PageTarget::Directory ? _("No folder selected")
                                                    : _("No device selected");
        update_messages({}, {});
        gtk_label_set_text(GTK_LABEL(summary_label_), "");
    }
    if (running && job->series.empty() && fraction == 0)
        gtk_progress_bar_pulse(GTK_PROGRESS_BAR(progress_));
    else
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(progress_), std::clamp(fraction, 0.0, 1.0));
    gtk_progress_bar_set_text(GTK_PROGRESS_BAR(progress_), progress_text.c_str());

    // The bar being measured (the next block size or profile test), filling
    // up with the run's progress: every bar gets an equal share of the run.
    graph_.chart().set_running_bar(std::nullopt, 0);
    if (view().spec.style == ChartStyle::Bar && running && page_.target == PageTarget::Device) {
        std::size_t done = 0;
        double last = 0;
        for (std::size_t i = 0; i < job->series.size() && i < job->points.size(); ++i)
            if (job->series[i].name == view().series && !job->points[i].empty()) {
                done = job->points[i].size();
                last = job->points[i].back().x;
            }
        double bars = 0, next = 0;
        if (view().spec.x_scale == AxisScale::Categories) {
            bars = static_cast<double>(spec_for(view(), page_.kind, job->parameters, job->summary, 0).categories.size());
            next = static_cast<double>(done);
        } else {
            double low = number_of(job->parameters, "min_block", 0);
            if (low <= 0)
                low = device && device->logical_block_size ? device->logical_block_size : 512;
            const double high = std::max(low, number_of(job->parameters, "max_block", 0));
            bars = std::floor(std::log2(high / low)) + 1;
            next = done ? last * 2 : low;
        }
        if (bars > static_cast<double>(done))
            graph_.chart().set_running_bar(next, std::clamp(fraction * bars - static_cast<double>(done), 0.0, 1.0));
    }
    graph_.changed();
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
    const BenchmarkDescription d = describe_benchmark(page_.kind, effective_parameters(), device ? device->node : "/dev/sdX",
                                                      device ? device->logical_block_size : 512);
    gtk_label_set_text(GTK_LABEL(info_label_), d.what.c_str());
    std::string commands;
    for (const std::string& line : d.fio_commands)
        commands += (commands.empty() ? "" : "\n\n") + line;
    gtk_label_set_text(GTK_LABEL(fio_label_), commands.c_str());
}

void BenchmarkPageView::start()
{
    DaemonClient* client = host_.client();
    if (!client || starting_ || !can_start())
        return;
    if (const JobEntry* job = live_job(); job && job->running())
        return;
    if (page_.target == PageTarget::Directory)
        start_in_folder(host_.selected_folder());
    else if (const DeviceEntry* device = host_.selected_device())
        start_on_device(*device);
}

std::weak_ptr<bool> BenchmarkPageView::begin_start()
{
    // "Waiting for authorization…" and an empty graph until the reply.
    starting_ = true;
    detach();
    opened_.reset();
    rebuild_chart();
    update_controls();
    return alive_;
}

void BenchmarkPageView::start_on_device(const DeviceEntry& device)
{
    SavedValueMap options = settings_.changed();
    if (page_.target == PageTarget::DeviceWrite) {
        const bool erase = gtk_check_button_get_active(GTK_CHECK_BUTTON(erase_button_));
        options = write_options(options, erase ? WriteMode::Destroy : WriteMode::Preserve,
                                gtk_editable_get_text(GTK_EDITABLE(confirm_entry_)));
        // Consent is for one run: erasing again needs the serial typed again.
        if (erase)
            gtk_editable_set_text(GTK_EDITABLE(confirm_entry_), "");
    }
    std::weak_ptr<bool> alive = begin_start();
    const std::string device_path = device.path;
    // Only what the user changed: defaults stay the daemon's, which scales
    // them down to small devices.
    host_.client()->start_benchmark(device_path, page_.kind, options,
                                    [this, alive, device_path](std::variant<std::string, CallError> reply) {
                                        if (!alive.expired())
                                            on_started(std::move(reply), device_path, {});
                                    });
}

void BenchmarkPageView::start_in_folder(const std::string& folder)
{
    // Opened here, by us, with our own permissions; the daemon gets the
    // descriptor, never the path. Ours is closed when this returns.
    std::string error;
    const DirectoryFd directory = open_directory(folder, error);
    if (!directory) {
        host_.toast(printf_string(_("Cannot open “%s”: %s"), folder_display_name(folder).c_str(), error.c_str()));
        return;
    }
    std::weak_ptr<bool> alive = begin_start();
    host_.client()->start_filesystem_benchmark(directory.get(), page_.kind, settings_.changed(),
                                               [this, alive, folder](std::variant<std::string, CallError> reply) {
                                                   if (!alive.expired())
                                                       on_started(std::move(reply), folder, folder);
                                               });
}

void BenchmarkPageView::on_started(std::variant<std::string, CallError> reply, const std::string& selection,
                                   const std::string& folder)
{
    starting_ = false;
    const std::string now = page_.target == PageTarget::Directory ? host_.selected_folder()
        : host_.selected_device()                                 ? host_.selected_device()->path
                                                                  : std::string();
    if (const auto* error = std::get_if<CallError>(&reply)) {
        host_.toast(error_text(*error, folder.empty() ? std::string() : folder_display_name(folder)).message);
    } else if (DaemonClient* client = host_.client(); client && now == selection) {
        // Still the device or folder it was started on (the password
        // dialog may have taken a while): show the job. Else it shows up
        // when that one is selected again.
        const std::string& path = std::get<std::string>(reply);
        // InterfacesAdded came before the reply, so the job is known.
        if (const JobEntry* job = client->job(path)) {
            attach_job(*job);
            rebuild_chart();
        } else {
            job_path_ = path;
        }
    }
    update_controls();
    host_.page_changed();
}

void BenchmarkPageView::stop()
{
    DaemonClient* client = host_.client();
    const JobEntry* job = live_job();
    if (!client || !job || !job->running() || stopping_)
        return;
    stopping_ = true;
    update_controls();
    std::weak_ptr<bool> alive = alive_;
    client->cancel_job(job->path, [this, alive](std::optional<CallError> error) {
        if (alive.expired() || !error)
            return;
        stopping_ = false;
        update_controls();
        host_.toast(error_text(*error).message);
    });
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
    return export_chart(graph_.chart(), path, *format, graph_title(), 1200, 700, ChartTheme::light());
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

void BenchmarkPageView::on_start_clicked(GtkButton*, gpointer self)
{
    auto* page = static_cast<BenchmarkPageView*>(self);
    const JobEntry* job = page->live_job();
    if (job && job->running())
        page->stop();
    else
        page->start();
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
        if (page->view_buttons_[i] == GTK_WIDGET(button) && page->view_index_ != i) {
            page->view_index_ = i;
            page->rebuild_chart();
            page->update_controls();
        }
}

void BenchmarkPageView::set_parameter(const std::string& key, const SavedValue& value)
{
    settings_.set_value(key, value);
}

void BenchmarkPageView::on_settings_shown(GtkPopover*, gpointer self)
{
    auto* page = static_cast<BenchmarkPageView*>(self);
    if (DaemonClient* client = page->host_.client())
        if (const BenchmarkInfo* info = client->benchmark(page->page_.kind)) {
            // A write's mode and confirmation are asked on the page, in words.
            std::vector<ParameterInfo> parameters;
            for (const ParameterInfo& p : info->parameters)
                if (page->page_.target != PageTarget::DeviceWrite || (p.key != "mode" && p.key != "confirm"))
                    parameters.push_back(p);
            page->settings_.set_parameters(parameters);
        }
}

void BenchmarkPageView::on_info_shown(GtkPopover*, gpointer self)
{
    static_cast<BenchmarkPageView*>(self)->update_description();
}

} // namespace diskbench::client
