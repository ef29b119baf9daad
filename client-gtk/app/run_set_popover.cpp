// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_set_popover.hpp"

#include "text/kind_titles.hpp"
#include "text/printf_text.hpp"
#include "ui_file.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

namespace {

// The style of the presets' lists of kinds; the .ui's target_label has it too.
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
    // Declared in client-gtk/ui/run-set-popover.ui (the GResource); the
    // builder's reference goes with it, this keeps its own on the button
    // (the popover and all in it are the button's).
    const UiFile ui("run-set-popover.ui");
    button_ = Ref<GtkWidget>::add(ui.widget("button"));
    popover_ = ui.widget("popover");
    target_label_ = ui.widget("target_label");
    custom_box_ = ui.widget("custom_box");
    pause_ = ui.widget("pause");
    run_ = ui.widget("run");
    stop_ = ui.widget("stop");
    progress_ = ui.widget("progress");
    // The limits are the client library's, which the runner holds a set to.
    gtk_spin_button_set_range(GTK_SPIN_BUTTON(pause_), 0, max_run_set_pause_s);
    gtk_spin_button_set_value(GTK_SPIN_BUTTON(pause_), default_run_set_pause_s);

    // The presets are the client library's: each a radio, with the kinds it
    // runs under it, before Custom (the .ui's) in the same group.
    GtkWidget* const box = ui.widget("box");
    GtkWidget* const custom = ui.widget("custom_radio");
    GtkWidget* previous = target_label_;
    auto add_choice = [this](const std::string& name, GtkWidget* radio) {
        g_signal_connect_swapped(radio, "toggled", G_CALLBACK(+[](RunSetPopover* self) { self->update_sensitivity(); }),
                                 this);
        presets_.emplace_back(name, radio);
    };
    for (const RunSetPreset& preset : run_set_presets()) {
        GtkWidget* radio = gtk_check_button_new_with_label(_(preset.title));
        gtk_check_button_set_group(GTK_CHECK_BUTTON(radio), GTK_CHECK_BUTTON(custom));
        gtk_box_insert_child_after(GTK_BOX(box), radio, previous);
        previous = radio;
        std::string kinds;
        for (const std::string_view kind : preset.kinds)
            kinds += (kinds.empty() ? "" : ", ") + kind_title_text(kind);
        if (!kinds.empty()) {
            GtkWidget* list = caption(kinds);
            gtk_widget_set_margin_start(list, 28);
            gtk_box_insert_child_after(GTK_BOX(box), list, previous);
            previous = list;
        }
        add_choice(std::string(preset.name), radio);
    }
    add_choice(std::string(custom_run_set), custom);

    g_signal_connect_swapped(stop_, "clicked", G_CALLBACK(+[](RunSetPopover* self) { self->actions_.stop(); }), this);
    g_signal_connect(run_, "clicked", G_CALLBACK(&RunSetPopover::on_run), this);
    g_signal_connect(popover_, "show", G_CALLBACK(&RunSetPopover::on_shown), this);
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
    gtk_menu_button_set_label(GTK_MENU_BUTTON(button_.get()), label);
    gtk_accessible_update_property(GTK_ACCESSIBLE(button_.get()), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
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
