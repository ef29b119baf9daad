// SPDX-License-Identifier: GPL-3.0-or-later
// What a benchmark page looks like: its widgets, built once. What they do
// is in benchmark_page_view.cpp.
#include "benchmark_page_view.hpp"
#include "icon_button.hpp"

#include "../model/pages/page_model.hpp"

#include <glib/gi18n-lib.h>

#include <vector>

namespace diskbench::client {

void BenchmarkPageView::build()
{
    root_ = Ref<GtkWidget>::take_floating(gtk_box_new(GTK_ORIENTATION_VERTICAL, 0));
    GtkWidget* header = build_header();
    gtk_widget_set_margin_start(header, 18);
    gtk_widget_set_margin_end(header, 18);
    gtk_widget_set_margin_top(header, 12);
    gtk_widget_set_margin_bottom(header, 8);
    gtk_box_append(GTK_BOX(root_.get()), header);

    // Below the header the page scrolls when the window is too short for
    // it. Without that, a short window squeezed the warnings' revealer below
    // its card's height, and the card, drawn from the revealer's bottom,
    // lost its top lines. The viewport gives the page its natural height
    // (not its minimum) whenever that does not fit, so no part is squeezed;
    // when it fits, the chart takes the room that is left.
    GtkWidget* box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_set_margin_start(box, 18);
    gtk_widget_set_margin_end(box, 18);
    // The viewport clips at its edges: room for the outline and shadow
    // that cards draw outside themselves.
    gtk_widget_set_margin_top(box, 4);
    gtk_widget_set_margin_bottom(box, 12);
    GtkWidget* viewport = gtk_viewport_new(nullptr, nullptr);
    gtk_scrollable_set_vscroll_policy(GTK_SCROLLABLE(viewport), GTK_SCROLL_NATURAL);
    gtk_viewport_set_child(GTK_VIEWPORT(viewport), box);
    GtkWidget* scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), viewport);
    gtk_widget_set_vexpand(scroll, TRUE);
    gtk_box_append(GTK_BOX(root_.get()), scroll);

    gtk_box_append(GTK_BOX(box), build_messages());
    if (page_.target == PageTarget::DeviceWrite) {
        write_card_ = std::make_unique<WriteConsentCard>([this] { update_controls(); });
        gtk_box_append(GTK_BOX(box), write_card_->widget());
    }
    if (GtkWidget* table = chart_.table_widget()) {
        // The CrystalDiskMark grid is some 700 pixels wide: narrower than
        // that (a phone), it scrolls sideways instead of widening the window.
        GtkWidget* table_scroll = gtk_scrolled_window_new();
        gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(table_scroll), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
        gtk_scrolled_window_set_propagate_natural_width(GTK_SCROLLED_WINDOW(table_scroll), TRUE);
        gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(table_scroll), TRUE);
        gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(table_scroll), table);
        gtk_box_append(GTK_BOX(box), table_scroll);
    }
    GtkWidget* frame = gtk_frame_new(nullptr);
    // The Surface page's error scan first: on a dying drive, what cannot
    // be read matters more than how fast the rest is.
    if (page_.model && page_.model->extra == PageExtra::FaultMap) {
        fault_map_ = std::make_unique<FaultMap>();
        gtk_box_append(GTK_BOX(box), fault_map_->widget());
    }
    gtk_frame_set_child(GTK_FRAME(frame), chart_.graph_widget());
    gtk_box_append(GTK_BOX(box), frame);
    gtk_box_append(GTK_BOX(box), build_footer());
    chart_.set_placeholder(page_.target == PageTarget::Directory
                               ? _("No results yet. Pick a folder and press Start.")
                               : _("No results yet. Pick a device and press Start."));
}

GtkWidget* BenchmarkPageView::build_header()
{
    // Title and summary above, the page's controls below them: the views
    // and options on the left, what runs it on the right. The two groups
    // share a line when there is room and wrap to two when there is not
    // (a flow box), so that the page fits a 360-pixel phone screen without
    // hiding a control.
    GtkWidget* header = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    GtkWidget* title = gtk_label_new(_(page_.title.c_str()));
    gtk_widget_add_css_class(title, "title-2");
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    gtk_label_set_wrap(GTK_LABEL(title), TRUE);
    GtkWidget* summary = gtk_label_new(_(page_.summary.c_str()));
    gtk_widget_add_css_class(summary, "dim-label");
    gtk_label_set_xalign(GTK_LABEL(summary), 0);
    gtk_label_set_wrap(GTK_LABEL(summary), TRUE);
    gtk_box_append(GTK_BOX(header), title);
    gtk_box_append(GTK_BOX(header), summary);

    // Gathered here, then each moved to a cell of the flow box below.
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

    GtkWidget* actions = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12);
    gtk_widget_set_hexpand(actions, TRUE);
    gtk_widget_set_halign(actions, GTK_ALIGN_END);
    gtk_box_append(GTK_BOX(actions), build_info_button());

    // The run's settings, from the daemon's list of parameters.
    GtkWidget* settings_popover = gtk_popover_new();
    gtk_popover_set_child(GTK_POPOVER(settings_popover), settings_.widget());
    g_signal_connect(settings_popover, "show", G_CALLBACK(&BenchmarkPageView::on_settings_shown), this);
    GtkWidget* settings = gtk_menu_button_new();
    gtk_menu_button_set_icon_name(GTK_MENU_BUTTON(settings), "emblem-system-symbolic");
    gtk_menu_button_set_popover(GTK_MENU_BUTTON(settings), settings_popover);
    settings_button_ = settings;
    name_icon_button(settings, _("Settings of the next run"));
    gtk_widget_set_valign(settings, GTK_ALIGN_CENTER);
    gtk_box_append(GTK_BOX(actions), settings);

    GtkWidget* export_button = gtk_button_new_from_icon_name("image-x-generic-symbolic");
    name_icon_button(export_button, _("Export graph…"));
    gtk_widget_set_valign(export_button, GTK_ALIGN_CENTER);
    g_signal_connect(export_button, "clicked", G_CALLBACK(&BenchmarkPageView::on_export_clicked), this);
    gtk_box_append(GTK_BOX(actions), export_button);

    start_button_ = gtk_button_new_with_label(_("Start"));
    gtk_widget_set_valign(start_button_, GTK_ALIGN_CENTER);
    gtk_widget_set_size_request(start_button_, 96, -1);
    g_signal_connect(start_button_, "clicked", G_CALLBACK(&BenchmarkPageView::on_start_clicked), this);
    gtk_box_append(GTK_BOX(actions), start_button_);

    // Each group of options a cell of its own (the views, the test file's
    // size, the unit...), so that they wrap one by one; what runs the page
    // stays together.
    std::vector<GtkWidget*> cells;
    while (GtkWidget* option = gtk_widget_get_first_child(options)) {
        cells.push_back(GTK_WIDGET(g_object_ref(option)));
        gtk_box_remove(GTK_BOX(options), option);
    }
    g_object_ref_sink(options);
    g_object_unref(options);
    cells.push_back(actions);
    GtkWidget* controls = gtk_flow_box_new();
    gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(controls), GTK_SELECTION_NONE);
    gtk_flow_box_set_min_children_per_line(GTK_FLOW_BOX(controls), 1);
    gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(controls), static_cast<guint>(cells.size()));
    gtk_flow_box_set_column_spacing(GTK_FLOW_BOX(controls), 12);
    gtk_flow_box_set_row_spacing(GTK_FLOW_BOX(controls), 6);
    for (GtkWidget* child : cells) {
        gtk_flow_box_append(GTK_FLOW_BOX(controls), child);
        if (child != actions)
            g_object_unref(child); // the flow box holds it now
        // The flow box's cells are layout only: Tab goes to the buttons.
        GtkWidget* cell = gtk_widget_get_parent(child);
        gtk_widget_set_focusable(cell, FALSE);
        // Start stays at the right edge, also on a line of its own; an
        // option alone on a line keeps its own width.
        gtk_widget_set_halign(cell, child == actions ? GTK_ALIGN_END : GTK_ALIGN_START);
    }
    gtk_box_append(GTK_BOX(header), controls);
    return header;
}

GtkWidget* BenchmarkPageView::build_info_button()
{
    // What the test does, with fio command lines to check our figures.
    GtkWidget* info_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8);
    // Wide enough for a fio command line to read, narrow enough for a phone.
    gtk_widget_set_size_request(info_box, 320, -1);
    info_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(info_label_), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(info_label_), 60);
    gtk_label_set_xalign(GTK_LABEL(info_label_), 0);
    // fio for most kinds, dd for the dd study's sweeps.
    GtkWidget* fio_heading = gtk_label_new(_("The same on the command line:"));
    fio_heading_ = fio_heading;
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
    name_icon_button(info, _("What this test does"));
    gtk_widget_set_valign(info, GTK_ALIGN_CENTER);
    return info;
}

GtkWidget* BenchmarkPageView::build_messages()
{
    // Warnings and notes of the run, in the page (libadwaita 1.2 has no AdwBanner).
    message_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(message_label_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(message_label_), 0);
    GtkWidget* message_box = GTK_WIDGET(g_object_new(GTK_TYPE_BOX, "orientation", GTK_ORIENTATION_HORIZONTAL,
                                                     "spacing", 8, "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP,
                                                     nullptr));
    gtk_widget_add_css_class(message_box, "card");
    // TRANSLATORS: what Orca calls the card of a run's warnings and notes
    gtk_accessible_update_property(GTK_ACCESSIBLE(message_box), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Messages"), -1);
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
    // A revealer clips its child to itself, and a card draws its outline
    // outside its box: clipped, the card lost its top border. A cross-fade
    // does not move the card, so nothing needs clipping.
    gtk_revealer_set_transition_type(GTK_REVEALER(message_revealer_), GTK_REVEALER_TRANSITION_TYPE_CROSSFADE);
    gtk_widget_set_overflow(message_revealer_, GTK_OVERFLOW_VISIBLE);
    gtk_revealer_set_child(GTK_REVEALER(message_revealer_), message_box);
    // A concealed cross-fading revealer still asks for its child's height
    // (only sliding ones shrink): left visible, it kept a blank band above
    // the chart on every page without messages. It is hidden once faded
    // out, and shown again before it fades in (update_messages).
    gtk_widget_set_visible(message_revealer_, FALSE);
    g_signal_connect(message_revealer_, "notify::child-revealed", G_CALLBACK(&BenchmarkPageView::on_messages_faded),
                     nullptr);
    return message_revealer_;
}

void BenchmarkPageView::on_messages_faded(GtkRevealer* revealer, GParamSpec*, gpointer)
{
    if (!gtk_revealer_get_reveal_child(revealer) && !gtk_revealer_get_child_revealed(revealer))
        gtk_widget_set_visible(GTK_WIDGET(revealer), FALSE);
}

GtkWidget* BenchmarkPageView::build_footer()
{
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

    // The checks card: compact, one line per check (block layer, link, stack).
    // A group named "Checks" to Orca, its lines a label it reads as text.
    checks_card_ = GTK_WIDGET(g_object_new(GTK_TYPE_BOX, "orientation", GTK_ORIENTATION_VERTICAL, "spacing", 2,
                                           "accessible-role", GTK_ACCESSIBLE_ROLE_GROUP, nullptr));
    gtk_widget_add_css_class(checks_card_, "card");
    gtk_accessible_update_property(GTK_ACCESSIBLE(checks_card_), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Checks"), -1);
    GtkWidget* checks_title = gtk_label_new(_("Checks"));
    gtk_widget_add_css_class(checks_title, "heading");
    gtk_label_set_xalign(GTK_LABEL(checks_title), 0);
    checks_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(checks_label_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(checks_label_), 0);
    gtk_label_set_selectable(GTK_LABEL(checks_label_), TRUE);
    for (GtkWidget* child : { checks_title, checks_label_ }) {
        gtk_widget_set_margin_start(child, 12);
        gtk_widget_set_margin_end(child, 12);
    }
    gtk_widget_set_margin_top(checks_title, 8);
    gtk_widget_set_margin_bottom(checks_label_, 8);
    gtk_box_append(GTK_BOX(checks_card_), checks_title);
    gtk_box_append(GTK_BOX(checks_card_), checks_label_);
    gtk_widget_set_visible(checks_card_, FALSE);
    gtk_box_append(GTK_BOX(footer), checks_card_);
    return footer;
}

} // namespace diskbench::client
