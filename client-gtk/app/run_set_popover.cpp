// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_set_popover.hpp"

#include "text/kind_titles.hpp"
#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

namespace {

GtkWidget* caption(const std::string& text)
{
    GtkWidget* label = gtk_label_new(text.c_str());
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(label), 40);
    gtk_widget_add_css_class(label, "dim-label");
    gtk_widget_add_css_class(label, "caption");
    return label;
}

} // namespace

RunSetPopover::RunSetPopover(Actions actions) : actions_(std::move(actions))
{
    GtkWidget* box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    // A fixed width: GTK 4.8 sizes a popover's height for its content's
    // narrowest width, which cut the wrapped lines' popover short.
    gtk_widget_set_size_request(box, 340, -1);
    gtk_widget_set_margin_start(box, 6);
    gtk_widget_set_margin_end(box, 6);
    gtk_widget_set_margin_top(box, 6);
    gtk_widget_set_margin_bottom(box, 6);
    /* TRANSLATORS: heading of the popover that runs several benchmarks one after another */
    GtkWidget* title = gtk_label_new(_("Run a Set"));
    gtk_widget_add_css_class(title, "heading");
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    gtk_box_append(GTK_BOX(box), title);
    target_label_ = caption({});
    gtk_box_append(GTK_BOX(box), target_label_);

    GtkWidget* group = nullptr;
    auto add_choice = [&](const std::string& name, const std::string& label, const std::string& kinds) {
        GtkWidget* radio = gtk_check_button_new_with_label(label.c_str());
        if (group)
            gtk_check_button_set_group(GTK_CHECK_BUTTON(radio), GTK_CHECK_BUTTON(group));
        else
            group = radio;
        g_signal_connect_swapped(radio, "toggled", G_CALLBACK(+[](RunSetPopover* self) { self->update_sensitivity(); }),
                                 this);
        gtk_box_append(GTK_BOX(box), radio);
        if (!kinds.empty()) {
            GtkWidget* list = caption(kinds);
            gtk_widget_set_margin_start(list, 28);
            gtk_box_append(GTK_BOX(box), list);
        }
        presets_.emplace_back(name, radio);
    };
    for (const RunSetPreset& preset : run_set_presets()) {
        std::string kinds;
        for (const std::string_view kind : preset.kinds)
            kinds += (kinds.empty() ? "" : ", ") + kind_title_text(kind);
        add_choice(std::string(preset.name), _(preset.title), kinds);
    }
    /* TRANSLATORS: a set of benchmarks the user ticks */
    add_choice(std::string(custom_run_set), _("Custom"), {});
    custom_box_ = gtk_grid_new();
    gtk_grid_set_column_homogeneous(GTK_GRID(custom_box_), TRUE);
    gtk_widget_set_margin_start(custom_box_, 22);
    gtk_box_append(GTK_BOX(box), custom_box_);

    GtkWidget* pause_row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    /* TRANSLATORS: the seconds a set waits between two benchmarks */
    GtkWidget* pause_label = gtk_label_new(_("Rest between benchmarks (s)"));
    gtk_widget_set_hexpand(pause_label, TRUE);
    gtk_label_set_xalign(GTK_LABEL(pause_label), 0);
    pause_ = gtk_spin_button_new_with_range(0, max_run_set_pause_s, 1);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(pause_), default_run_set_pause_s);
    gtk_accessible_update_relation(GTK_ACCESSIBLE(pause_), GTK_ACCESSIBLE_RELATION_LABELLED_BY, pause_label, nullptr,
                                   -1);
    gtk_box_append(GTK_BOX(pause_row), pause_label);
    gtk_box_append(GTK_BOX(pause_row), pause_);
    gtk_box_append(GTK_BOX(box), pause_row);

    progress_ = gtk_label_new(nullptr);
    gtk_label_set_xalign(GTK_LABEL(progress_), 0);
    gtk_widget_set_visible(progress_, FALSE);
    gtk_box_append(GTK_BOX(box), progress_);
    GtkWidget* buttons = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_set_halign(buttons, GTK_ALIGN_END);
    stop_ = gtk_button_new_with_mnemonic(_("_Stop the Set"));
    gtk_widget_add_css_class(stop_, "destructive-action");
    g_signal_connect_swapped(stop_, "clicked", G_CALLBACK(+[](RunSetPopover* self) { self->actions_.stop(); }), this);
    run_ = gtk_button_new_with_mnemonic(_("_Run"));
    gtk_widget_add_css_class(run_, "suggested-action");
    g_signal_connect(run_, "clicked", G_CALLBACK(&RunSetPopover::on_run), this);
    gtk_box_append(GTK_BOX(buttons), stop_);
    gtk_box_append(GTK_BOX(buttons), run_);
    gtk_box_append(GTK_BOX(box), buttons);

    popover_ = gtk_popover_new();
    gtk_popover_set_child(GTK_POPOVER(popover_), box);
    g_signal_connect(popover_, "show", G_CALLBACK(&RunSetPopover::on_shown), this);
    button_ = gtk_menu_button_new();
    gtk_menu_button_set_label(GTK_MENU_BUTTON(button_), _("Run a Set…"));
    // GTK 4.8 names a menu button after its class for Orca, whatever its label.
    gtk_accessible_update_property(GTK_ACCESSIBLE(button_), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Run a Set…"), -1);
    gtk_menu_button_set_popover(GTK_MENU_BUTTON(button_), popover_);
    gtk_widget_set_tooltip_text(button_, _("Run several benchmarks one after another, kept as one result"));
    gtk_widget_set_margin_start(button_, 6);
    gtk_widget_set_margin_end(button_, 6);
    gtk_widget_set_margin_top(button_, 6);
    gtk_widget_set_margin_bottom(button_, 6);
    // Last: "toggled" calls update_sensitivity(), which needs every widget
    // above (set earlier, it gave four GTK criticals at every start).
    gtk_check_button_set_active(GTK_CHECK_BUTTON(presets_.front().second), TRUE);
    update_sensitivity();
}

void RunSetPopover::fill()
{
    // The kinds the daemon offers now, ticked as the kept custom set says.
    while (GtkWidget* child = gtk_widget_get_first_child(custom_box_))
        gtk_grid_remove(GTK_GRID(custom_box_), child);
    kinds_.clear();
    const std::vector<std::string> kept = run_set_custom_kinds();
    for (const std::string& kind : run_set_candidates(actions_.offered())) {
        GtkWidget* check = gtk_check_button_new_with_label(kind_title_text(kind).c_str());
        gtk_check_button_set_active(GTK_CHECK_BUTTON(check),
                                    std::find(kept.begin(), kept.end(), kind) != kept.end());
        g_signal_connect_swapped(check, "toggled", G_CALLBACK(+[](RunSetPopover* self) { self->update_sensitivity(); }),
                                 this);
        const auto place = static_cast<int>(kinds_.size());
        gtk_grid_attach(GTK_GRID(custom_box_), check, place % 2, place / 2, 1, 1);
        kinds_.emplace_back(kind, check);
    }
    const std::string device = actions_.device_name();
    gtk_label_set_text(GTK_LABEL(target_label_),
                       device.empty() ? _("Select a device: a set reads a device, one benchmark after another.")
                                      : printf_text(_("One after another on %s, kept as one result."), device.c_str())
                                            .c_str());
    update_sensitivity();
}

std::string RunSetPopover::chosen_name() const
{
    for (const auto& [name, radio] : presets_)
        if (gtk_check_button_get_active(GTK_CHECK_BUTTON(radio)))
            return name;
    return presets_.front().first;
}

std::vector<std::string> RunSetPopover::ticked_kinds() const
{
    std::vector<std::string> ticked;
    for (const auto& [kind, check] : kinds_)
        if (gtk_check_button_get_active(GTK_CHECK_BUTTON(check)))
            ticked.push_back(kind);
    return ticked;
}

void RunSetPopover::update_sensitivity()
{
    const bool custom = chosen_name() == custom_run_set;
    gtk_widget_set_sensitive(custom_box_, custom && !running_);
    const bool device = actions_.device_name && !actions_.device_name().empty();
    gtk_widget_set_sensitive(run_, !running_ && device && (!custom || !ticked_kinds().empty()));
    gtk_widget_set_visible(stop_, running_);
    for (const auto& [name, radio] : presets_)
        gtk_widget_set_sensitive(radio, !running_);
    gtk_widget_set_sensitive(pause_, !running_);
}

void RunSetPopover::set_progress(const std::string& progress)
{
    running_ = !progress.empty();
    gtk_label_set_text(GTK_LABEL(progress_), progress.c_str());
    gtk_widget_set_visible(progress_, running_);
    const char* label = running_ ? progress.c_str() : _("Run a Set…");
    gtk_menu_button_set_label(GTK_MENU_BUTTON(button_), label);
    gtk_accessible_update_property(GTK_ACCESSIBLE(button_), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
    update_sensitivity();
}

void RunSetPopover::on_shown(GtkPopover*, gpointer self)
{
    static_cast<RunSetPopover*>(self)->fill();
}

void RunSetPopover::on_run(GtkButton*, gpointer self)
{
    auto* popover = static_cast<RunSetPopover*>(self);
    const std::string name = popover->chosen_name();
    const std::vector<std::string> custom = popover->ticked_kinds();
    const auto pause = static_cast<unsigned>(gtk_spin_button_get_value_as_int(GTK_SPIN_BUTTON(popover->pause_)));
    gtk_popover_popdown(GTK_POPOVER(popover->popover_));
    popover->actions_.run(name, pause, custom);
}

} // namespace diskbench::client
