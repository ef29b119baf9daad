// SPDX-License-Identifier: GPL-3.0-or-later
#include "history_page.hpp"
#include "icon_button.hpp"
#include "ui_file.hpp"

#include "../model/benchmark_pages.hpp"
#include "results/job_result.hpp"
#include "results/run_set.hpp"
#include "text/printf_text.hpp"
#include "contract/job_states.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

namespace {

std::string kind_title(const std::string& kind)
{
    const BenchmarkPage* page = benchmark_page(kind);
    return page ? std::string(_(page->title.c_str())) : kind;
}

} // namespace

HistoryPage::HistoryPage(RecentResults& recent, std::function<void(const std::string&, bool)> open,
                         std::function<void()> changed)
    : recent_(recent)
    , open_(std::move(open))
    , changed_(std::move(changed))
{
    // Declared in client-gtk/ui/history-page.ui (the GResource); the
    // builder's reference goes with it, the page keeps its own.
    const UiFile ui("history-page.ui");
    root_ = Ref<GtkWidget>::add(ui.widget("root"));
    content_ = ui.widget("content");
    title_ = ui.widget("title");
    trend_box_ = ui.widget("trend");
    trend_choice_ = ui.widget("trend_choice");
    list_group_ = ui.widget("list_group");
    compare_button_ = ui.widget("compare_button");
    list_ = ui.widget("list");
    empty_ = ui.widget("empty");

    // The trend's chart, below its heading and the drop-down.
    GtkWidget* frame = trend_.widget();
    gtk_widget_set_size_request(frame, 300, 170);
    gtk_widget_set_vexpand(frame, FALSE);
    gtk_widget_add_css_class(frame, "card");
    trend_.chart().set_placeholder(_("No figure to follow yet"));
    gtk_box_append(GTK_BOX(trend_box_), frame);
    // The .ui names the drop-down by its tooltip; GTK 4.8 reads its inner
    // toggle button instead, which only code reaches.
    const std::string trend_name = gtk_widget_get_tooltip_text(trend_choice_);
    name_drop_down(trend_choice_, trend_name.c_str());
    g_signal_connect(trend_choice_, "notify::selected", G_CALLBACK(&HistoryPage::on_trend_chosen), this);

    g_signal_connect_swapped(compare_button_, "clicked", G_CALLBACK(+[](HistoryPage* page) { page->compare_checked(); }),
                             this);
    g_signal_connect(list_, "row-activated", G_CALLBACK(&HistoryPage::on_row_activated), this);
    // Delete on a row deletes its result, as in Files.
    list_keys_ = gtk_event_controller_key_new();
    g_signal_connect(list_keys_, "key-pressed", G_CALLBACK(&HistoryPage::on_key), this);
    gtk_widget_add_controller(list_, list_keys_);
    // Shown: the folder may have changed meanwhile (a run kept, the CLI).
    g_signal_connect(root_.get(), "map", G_CALLBACK(&HistoryPage::on_map), this);
}

HistoryPage::~HistoryPage()
{
    // Toasts still shown outlive the page in the overlay's teardown: their
    // Undo and dismissal must not reach it.
    for (auto& [id, deleted] : deleted_)
        g_signal_handlers_disconnect_by_data(deleted.toast.get(), this);
    // The widgets may outlive the page too (the window holds them until it
    // is disposed): none of their handlers may reach it. The rows' check
    // and delete buttons lie below root_.
    disconnect_tree(root_.get());
    g_signal_handlers_disconnect_by_data(list_keys_, this);
}

void HistoryPage::disconnect_tree(GtkWidget* widget)
{
    g_signal_handlers_disconnect_by_data(widget, this);
    for (GtkWidget* child = gtk_widget_get_first_child(widget); child; child = gtk_widget_get_next_sibling(child))
        disconnect_tree(child);
}

void HistoryPage::set_subject(HistorySubject subject, const std::string& title)
{
    subject_ = std::move(subject);
    gtk_label_set_text(GTK_LABEL(title_), printf_text(_("History of %s"), title.c_str()).c_str());
    refresh();
}

void HistoryPage::refresh()
{
    // Hidden, it waits to be shown (on_map): a run kept on another page
    // does not rebuild it.
    if (!gtk_widget_get_mapped(root_.get()))
        return;
    recent_.reload_if_changed();
    fill_list();
}

void HistoryPage::fill_list()
{
    filling_ = true;
    while (GtkWidget* child = gtk_widget_get_first_child(list_))
        gtk_list_box_remove(GTK_LIST_BOX(list_), child);
    paths_.clear();
    checks_.clear();
    const std::vector<const RecentResult*> listed = history_of(recent_.results(), subject_);
    for (const RecentResult* entry : listed) {
        const SavedResult& result = entry->result;
        GtkWidget* row = adw_action_row_new();
        adw_preferences_row_set_use_markup(ADW_PREFERENCES_ROW(row), FALSE);
        const std::string title = result.members.empty() ? kind_title(result.kind) : run_set_title(result);
        adw_preferences_row_set_title(ADW_PREFERENCES_ROW(row), title.c_str());
        std::string subtitle = result_date_text(taken_at_us(result)) + "  ·  " + kept_result_headline(result);
        if (result.state == contract::job_states::cancelled)
            subtitle += "  ·  " + std::string(_("stopped early"));
        adw_action_row_set_subtitle(ADW_ACTION_ROW(row), subtitle.c_str());
        gtk_list_box_row_set_activatable(GTK_LIST_BOX_ROW(row), TRUE);
        gtk_widget_set_tooltip_text(row, _("Open this result"));
        GtkWidget* check = gtk_check_button_new();
        gtk_widget_set_valign(check, GTK_ALIGN_CENTER);
        name_icon_button(check, _("Pick for comparing"));
        g_signal_connect(check, "toggled", G_CALLBACK(&HistoryPage::on_check_toggled), this);
        adw_action_row_add_prefix(ADW_ACTION_ROW(row), check);
        GtkWidget* remove = gtk_button_new_from_icon_name("user-trash-symbolic");
        gtk_widget_set_valign(remove, GTK_ALIGN_CENTER);
        gtk_widget_add_css_class(remove, "flat");
        name_icon_button(remove, _("Delete this result"));
        g_object_set_data(G_OBJECT(remove), "diskbench-row", row);
        g_signal_connect(remove, "clicked", G_CALLBACK(&HistoryPage::on_delete_clicked), this);
        adw_action_row_add_suffix(ADW_ACTION_ROW(row), remove);
        gtk_list_box_append(GTK_LIST_BOX(list_), row);
        paths_.push_back(entry->path);
        checks_.push_back(check);
    }
    const bool any = !listed.empty();
    gtk_widget_set_visible(list_group_, any);
    gtk_widget_set_visible(trend_box_, any);
    gtk_widget_set_visible(empty_, !any);
    adw_preferences_group_set_description(
        ADW_PREFERENCES_GROUP(list_group_),
        printf_text(g_dngettext(GETTEXT_PACKAGE, "%d result, newest first", "%d results, newest first",
                                static_cast<unsigned long>(listed.size())),
                    static_cast<int>(listed.size()))
            .c_str());
    filling_ = false;
    fill_trend_choices();
    update_compare_button();
    changed_();
}

void HistoryPage::fill_trend_choices()
{
    // Keep the chosen figure when it is still there.
    const guint old_index = gtk_drop_down_get_selected(GTK_DROP_DOWN(trend_choice_));
    const std::optional<TrendChoice> old = old_index < choices_.size() ? std::optional(choices_[old_index]) : std::nullopt;
    choices_ = trend_choices(history_of(recent_.results(), subject_));
    GtkStringList* labels = gtk_string_list_new(nullptr);
    guint selected = 0;
    for (std::size_t i = 0; i < choices_.size(); ++i) {
        gtk_string_list_append(labels, trend_choice_label(choices_[i]).c_str());
        if (old && old->kind == choices_[i].kind && old->figure.key == choices_[i].figure.key)
            selected = static_cast<guint>(i);
    }
    filling_ = true;
    gtk_drop_down_set_model(GTK_DROP_DOWN(trend_choice_), G_LIST_MODEL(labels));
    g_object_unref(labels);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(trend_choice_), selected);
    filling_ = false;
    update_trend();
}

void HistoryPage::update_trend()
{
    const guint index = gtk_drop_down_get_selected(GTK_DROP_DOWN(trend_choice_));
    Chart& chart = trend_.chart();
    chart.clear_current();
    if (index >= choices_.size()) {
        trend_.redraw_now();
        return;
    }
    const TrendChoice& choice = choices_[index];
    const std::vector<TrendPoint> points = trend_points(history_of(recent_.results(), subject_), choice);
    ChartSpec spec;
    // A line through the results in time order (a few points get dots).
    spec.style = ChartStyle::Line;
    spec.x_scale = AxisScale::Categories;
    spec.y_unit = choice.figure.unit;
    ChartSeries series;
    series.label = trend_choice_label(choice);
    spec.categories = trend_labels(points);
    for (std::size_t i = 0; i < points.size(); ++i)
        series.points.push_back({ static_cast<double>(i), points[i].value });
    chart.set_spec(std::move(spec));
    chart.set_current({ std::move(series) });
    trend_.redraw_now();
}

void HistoryPage::update_compare_button()
{
    std::vector<std::size_t> checked;
    for (std::size_t i = 0; i < checks_.size(); ++i)
        if (gtk_check_button_get_active(GTK_CHECK_BUTTON(checks_[i])))
            checked.push_back(i);
    gtk_widget_set_sensitive(compare_button_, checked.size() == 2);
    gtk_widget_set_tooltip_text(compare_button_, checked.size() == 2
                                                     ? _("Open the two picked results, the older as the reference")
                                                     : _("Pick two results of the same kind to compare them"));
}

void HistoryPage::compare_checked()
{
    std::vector<std::string> picked; // newest first, as listed
    for (std::size_t i = 0; i < checks_.size(); ++i)
        if (gtk_check_button_get_active(GTK_CHECK_BUTTON(checks_[i])))
            picked.push_back(paths_[i]);
    if (picked.size() != 2)
        return;
    const auto kind_of = [this](const std::string& path) {
        for (const RecentResult& entry : recent_.results())
            if (entry.path == path)
                return entry.result.kind;
        return std::string();
    };
    if (kind_of(picked[0]) != kind_of(picked[1])) {
        AdwToast* toast = adw_toast_new(_("Only results of the same kind can be compared."));
        adw_toast_overlay_add_toast(ADW_TOAST_OVERLAY(root_.get()), toast);
        return;
    }
    // Side by side as the Compare overlay shows them: the newer one as the
    // result, the older under it as the reference.
    const std::string newer = picked[0], older = picked[1];
    open_(newer, false);
    open_(older, true);
}

void HistoryPage::delete_result(std::size_t index)
{
    if (index >= paths_.size())
        return;
    const std::string path = paths_[index];
    std::string contents;
    const std::string error = recent_.remove(path, contents);
    if (!error.empty()) {
        gchar* escaped = g_markup_escape_text(error.c_str(), -1);
        adw_toast_overlay_add_toast(ADW_TOAST_OVERLAY(root_.get()), adw_toast_new(escaped));
        g_free(escaped);
        refresh();
        return;
    }
    fill_list();
    // The keyboard stays in the list: on the row that took the deleted one's place.
    if (GtkListBoxRow* next = gtk_list_box_get_row_at_index(GTK_LIST_BOX(list_), static_cast<int>(
                                  std::min(index, paths_.empty() ? std::size_t { 0 } : paths_.size() - 1))))
        gtk_widget_grab_focus(GTK_WIDGET(next));
    // Deleted at once, with Undo in the toast, as GNOME apps do.
    AdwToast* toast = adw_toast_new(_("Result deleted"));
    adw_toast_set_button_label(toast, _("_Undo"));
    adw_toast_set_timeout(toast, 8);
    const guint id = next_toast_++;
    deleted_[id] = { path, std::move(contents), Ref<AdwToast>::add(toast) };
    g_object_set_data(G_OBJECT(toast), "diskbench-deleted", GUINT_TO_POINTER(id));
    g_signal_connect(toast, "button-clicked", G_CALLBACK(&HistoryPage::on_undo), this);
    g_signal_connect(toast, "dismissed", G_CALLBACK(&HistoryPage::on_toast_dismissed), this);
    adw_toast_overlay_add_toast(ADW_TOAST_OVERLAY(root_.get()), toast);
}

void HistoryPage::on_undo(AdwToast* toast, gpointer self)
{
    auto* page = static_cast<HistoryPage*>(self);
    const auto found = page->deleted_.find(GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(toast), "diskbench-deleted")));
    if (found == page->deleted_.end())
        return;
    const std::string error = page->recent_.restore(found->second.path, found->second.contents);
    page->deleted_.erase(found);
    if (!error.empty()) {
        gchar* escaped = g_markup_escape_text(error.c_str(), -1);
        adw_toast_overlay_add_toast(ADW_TOAST_OVERLAY(page->root_.get()), adw_toast_new(escaped));
        g_free(escaped);
    }
    page->fill_list();
}

void HistoryPage::on_toast_dismissed(AdwToast* toast, gpointer self)
{
    auto* page = static_cast<HistoryPage*>(self);
    g_signal_handlers_disconnect_by_data(toast, self);
    // Drops our reference too; the emission holds one until it returns.
    page->deleted_.erase(GPOINTER_TO_UINT(g_object_get_data(G_OBJECT(toast), "diskbench-deleted")));
}

void HistoryPage::on_row_activated(GtkListBox*, GtkListBoxRow* row, gpointer self)
{
    auto* page = static_cast<HistoryPage*>(self);
    const int index = gtk_list_box_row_get_index(row);
    if (index >= 0 && static_cast<std::size_t>(index) < page->paths_.size())
        page->open_(page->paths_[static_cast<std::size_t>(index)], false);
}

void HistoryPage::on_delete_clicked(GtkButton* button, gpointer self)
{
    auto* row = static_cast<GtkWidget*>(g_object_get_data(G_OBJECT(button), "diskbench-row"));
    const int index = row ? gtk_list_box_row_get_index(GTK_LIST_BOX_ROW(row)) : -1;
    if (index >= 0)
        static_cast<HistoryPage*>(self)->delete_result(static_cast<std::size_t>(index));
}

gboolean HistoryPage::on_key(GtkEventControllerKey*, guint keyval, guint, GdkModifierType state, gpointer self)
{
    auto* page = static_cast<HistoryPage*>(self);
    if ((keyval != GDK_KEY_Delete && keyval != GDK_KEY_KP_Delete)
        || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SHIFT_MASK)))
        return FALSE;
    GtkWidget* focus = gtk_root_get_focus(gtk_widget_get_root(page->list_));
    GtkWidget* row = focus ? gtk_widget_get_ancestor(focus, GTK_TYPE_LIST_BOX_ROW) : nullptr;
    if (!row || gtk_widget_get_parent(row) != page->list_)
        return FALSE;
    page->delete_result(static_cast<std::size_t>(gtk_list_box_row_get_index(GTK_LIST_BOX_ROW(row))));
    return TRUE;
}

void HistoryPage::on_check_toggled(GtkCheckButton* check, gpointer self)
{
    auto* page = static_cast<HistoryPage*>(self);
    if (page->filling_)
        return;
    // Two at most: a third pick replaces the earlier ones but the last.
    if (gtk_check_button_get_active(check)) {
        std::size_t active = 0;
        for (GtkWidget* other : page->checks_)
            active += gtk_check_button_get_active(GTK_CHECK_BUTTON(other)) ? 1 : 0;
        for (GtkWidget* other : page->checks_)
            if (active > 2 && other != GTK_WIDGET(check) && gtk_check_button_get_active(GTK_CHECK_BUTTON(other))) {
                gtk_check_button_set_active(GTK_CHECK_BUTTON(other), FALSE);
                --active;
            }
    }
    page->update_compare_button();
}

void HistoryPage::on_trend_chosen(GObject*, GParamSpec*, gpointer self)
{
    auto* page = static_cast<HistoryPage*>(self);
    if (!page->filling_)
        page->update_trend();
}

void HistoryPage::on_map(GtkWidget*, gpointer self)
{
    static_cast<HistoryPage*>(self)->refresh();
}

void HistoryPage::focus_primary()
{
    if (GtkListBoxRow* first = gtk_list_box_get_row_at_index(GTK_LIST_BOX(list_), 0))
        gtk_widget_grab_focus(GTK_WIDGET(first));
    else
        gtk_widget_child_focus(content_, GTK_DIR_TAB_FORWARD);
}

std::string HistoryPage::status() const
{
    return "history:idle:" + std::to_string(paths_.size());
}

} // namespace diskbench::client
