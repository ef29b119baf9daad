// SPDX-License-Identifier: GPL-3.0-or-later
// What a benchmark page looks like: its widgets, built once. What they do
// is in benchmark_page_view.cpp.
#include "benchmark_page_view.hpp"
#include "ui_file.hpp"

#include "../model/pages/page_model.hpp"

#include <glib/gi18n-lib.h>

#include <vector>

namespace diskbench::client {

void BenchmarkPageView::build()
{
    // The page's fixed parts are declared in client-gtk/ui/benchmark-page.ui
    // (the GResource); what differs by kind is added here. The builder's
    // reference goes with it, the page keeps its own of the root.
    const UiFile ui("benchmark-page.ui");
    root_ = Ref<GtkWidget>::add(ui.widget("root"));
    gtk_label_set_label(GTK_LABEL(ui.widget("title")), _(page_.title.c_str()));
    gtk_label_set_label(GTK_LABEL(ui.widget("summary")), _(page_.summary.c_str()));
    info_label_ = ui.widget("info_label");
    fio_heading_ = ui.widget("fio_heading");
    fio_label_ = ui.widget("fio_label");
    settings_button_ = ui.widget("settings_button");
    start_button_ = ui.widget("start_button");
    message_revealer_ = ui.widget("message_revealer");
    message_label_ = ui.widget("message_label");
    progress_ = ui.widget("progress");
    summary_label_ = ui.widget("summary_label");
    checks_card_ = ui.widget("checks_card");
    checks_label_ = ui.widget("checks_label");
    // TRANSLATORS: what Orca calls the card of a run's warnings and notes
    gtk_accessible_update_property(GTK_ACCESSIBLE(ui.widget("message_card")), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Messages"), -1);
    // The run's settings, from the daemon's list of parameters.
    gtk_popover_set_child(GTK_POPOVER(ui.widget("settings_popover")), settings_.widget());
    g_signal_connect(ui.widget("settings_popover"), "show", G_CALLBACK(&BenchmarkPageView::on_settings_shown), this);
    g_signal_connect(ui.widget("info_popover"), "show", G_CALLBACK(&BenchmarkPageView::on_info_shown), this);
    g_signal_connect(ui.widget("export_button"), "clicked", G_CALLBACK(&BenchmarkPageView::on_export_clicked), this);
    g_signal_connect(start_button_, "clicked", G_CALLBACK(&BenchmarkPageView::on_start_clicked), this);
    g_signal_connect(message_revealer_, "notify::child-revealed", G_CALLBACK(&BenchmarkPageView::on_messages_faded),
                     nullptr);
    add_options(ui.widget("controls"), ui.widget("actions"));

    // What only some kinds have, in this order after the messages: the
    // write consent, the Profiles table, the Surface page's error scan
    // (on a dying drive, what cannot be read matters more than how fast
    // the rest is); then the chart.
    GtkWidget* content = ui.widget("content");
    GtkWidget* previous = message_revealer_;
    const auto insert = [content, &previous](GtkWidget* widget) {
        gtk_box_insert_child_after(GTK_BOX(content), widget, previous);
        previous = widget;
    };
    if (page_.target == PageTarget::DeviceWrite || (page_.model && page_.model->consent_when_writing)) {
        write_card_ = std::make_unique<WriteConsentCard>([this] { update_controls(); });
        insert(write_card_->widget());
    }
    if (GtkWidget* table = chart_.table_widget()) {
        // The CrystalDiskMark grid is some 700 pixels wide: narrower than
        // that (a phone), it scrolls sideways instead of widening the window.
        GtkWidget* table_scroll = gtk_scrolled_window_new();
        gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(table_scroll), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
        gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(table_scroll), TRUE);
        gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(table_scroll), TRUE);
        gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(table_scroll), table);
        insert(table_scroll);
    }
    if (page_.model && page_.model->steady_state_beside) {
        steady_label_ = gtk_label_new("");
        gtk_label_set_wrap(GTK_LABEL(steady_label_), TRUE);
        gtk_label_set_xalign(GTK_LABEL(steady_label_), 0);
        gtk_widget_add_css_class(steady_label_, "dim-label");
        gtk_widget_set_visible(steady_label_, FALSE);
        insert(steady_label_);
        g_signal_connect(root_.get(), "map", G_CALLBACK(on_page_mapped), this);
    }
    if (page_.model && page_.model->extra == PageExtra::FaultMap) {
        fault_map_ = std::make_unique<FaultMap>();
        insert(fault_map_->widget());
    }
    gtk_frame_set_child(GTK_FRAME(ui.widget("chart_frame")), chart_.graph_widget());
    chart_.set_placeholder(page_.target == PageTarget::Directory
                               ? _("No results yet. Pick a folder and press Start.")
                               : _("No results yet. Pick a device and press Start."));
}

void BenchmarkPageView::add_options(GtkWidget* controls, GtkWidget* actions)
{
    // Gathered here, then each moved to a cell of the flow box before
    // "actions" (the views, the test file's size, the unit...), so that
    // they wrap one by one; what runs the page stays together.
    GtkWidget* options = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    if (page_.views.size() > 1) {
        GtkWidget* linked = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
        gtk_widget_add_css_class(linked, "linked");
        gtk_widget_set_valign(linked, GTK_ALIGN_CENTER);
        // TRANSLATORS: what Orca says for the row of buttons choosing what the graph shows
        gtk_accessible_update_property(GTK_ACCESSIBLE(linked), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Graph shows"), -1);
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
        gtk_box_append(GTK_BOX(options), linked);
    }
    const PageExtra extra = page_.model ? page_.model->extra : PageExtra::None;
    if (extra == PageExtra::FileProfileTable)
        build_file_profile_controls(options);
    // Both Profiles tables show MB/s, IOPS or latency: their unit is chosen beside the views.
    if (extra == PageExtra::ProfileGrid || extra == PageExtra::FileProfileTable)
        gtk_box_append(GTK_BOX(options), build_unit_choice());

    int position = 0;
    while (GtkWidget* option = gtk_widget_get_first_child(options)) {
        g_object_ref(option);
        gtk_box_remove(GTK_BOX(options), option);
        gtk_flow_box_insert(GTK_FLOW_BOX(controls), option, position++);
        g_object_unref(option); // the flow box holds it now
    }
    g_object_ref_sink(options);
    g_object_unref(options);
    gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(controls), static_cast<guint>(position + 1));
    for (GtkWidget* cell = gtk_widget_get_first_child(controls); cell; cell = gtk_widget_get_next_sibling(cell)) {
        // The flow box's cells are layout only: Tab goes to the buttons.
        gtk_widget_set_focusable(cell, FALSE);
        // Start stays at the right edge, also on a line of its own; an
        // option alone on a line keeps its own width.
        const bool runs = gtk_flow_box_child_get_child(GTK_FLOW_BOX_CHILD(cell)) == actions;
        gtk_widget_set_halign(cell, runs ? GTK_ALIGN_END : GTK_ALIGN_START);
    }
}

void BenchmarkPageView::on_messages_faded(GtkRevealer* revealer, GParamSpec*, gpointer)
{
    if (!gtk_revealer_get_reveal_child(revealer) && !gtk_revealer_get_child_revealed(revealer))
        gtk_widget_set_visible(GTK_WIDGET(revealer), FALSE);
}

} // namespace diskbench::client
