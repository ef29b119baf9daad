// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_consent_card.hpp"

#include "../model/write_consent.hpp"
#include "text/printf_text.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

WriteConsentCard::WriteConsentCard(std::function<void()> changed)
    : changed_(std::move(changed))
{
    card_ = Ref<GtkWidget>::take_floating(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8));
    GtkWidget* card = card_.get();
    gtk_widget_add_css_class(card, "card");
    GtkWidget* top = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10);
    GtkWidget* icon = gtk_image_new_from_icon_name("dialog-warning-symbolic");
    gtk_widget_add_css_class(icon, "warning");
    gtk_widget_set_valign(icon, GTK_ALIGN_START);
    label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(label_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(label_), 0);
    gtk_widget_set_hexpand(label_, TRUE);
    gtk_box_append(GTK_BOX(top), icon);
    gtk_box_append(GTK_BOX(top), label_);
    gtk_box_append(GTK_BOX(card), top);

    // The choices on one line when there is room, else wrapped (a phone).
    GtkWidget* modes = gtk_flow_box_new();
    gtk_flow_box_set_selection_mode(GTK_FLOW_BOX(modes), GTK_SELECTION_NONE);
    gtk_flow_box_set_max_children_per_line(GTK_FLOW_BOX(modes), 3);
    gtk_flow_box_set_column_spacing(GTK_FLOW_BOX(modes), 12);
    gtk_flow_box_set_row_spacing(GTK_FLOW_BOX(modes), 6);
    keep_button_ = gtk_check_button_new_with_mnemonic(_("_Keep data (read and write back)"));
    erase_button_ = gtk_check_button_new_with_mnemonic(_("_Erase data"));
    gtk_check_button_set_group(GTK_CHECK_BUTTON(erase_button_), GTK_CHECK_BUTTON(keep_button_));
    gtk_check_button_set_active(GTK_CHECK_BUTTON(keep_button_), TRUE);
    // Both: GTK deactivates the old member of a group (its "toggled") before
    // it activates the new one, so keep's signal alone comes too early.
    g_signal_connect(keep_button_, "toggled", G_CALLBACK(&WriteConsentCard::on_mode_toggled), this);
    g_signal_connect(erase_button_, "toggled", G_CALLBACK(&WriteConsentCard::on_mode_toggled), this);
    confirm_entry_ = gtk_entry_new();
    gtk_widget_set_hexpand(confirm_entry_, TRUE);
    g_signal_connect(confirm_entry_, "changed", G_CALLBACK(&WriteConsentCard::on_confirm_changed), this);
    for (GtkWidget* child : { keep_button_, erase_button_, confirm_entry_ }) {
        gtk_flow_box_append(GTK_FLOW_BOX(modes), child);
        // The flow box's cells are layout only: Tab goes to the controls.
        gtk_widget_set_focusable(gtk_widget_get_parent(child), FALSE);
    }
    gtk_box_append(GTK_BOX(card), modes);

    blocker_label_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(blocker_label_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(blocker_label_), 0);
    gtk_widget_add_css_class(blocker_label_, "error");
    gtk_box_append(GTK_BOX(card), blocker_label_);
    for (GtkWidget* child = gtk_widget_get_first_child(card); child; child = gtk_widget_get_next_sibling(child)) {
        gtk_widget_set_margin_start(child, 12);
        gtk_widget_set_margin_end(child, 12);
    }
    gtk_widget_set_margin_top(gtk_widget_get_first_child(card), 10);
    gtk_widget_set_margin_bottom(blocker_label_, 10);
}

WriteConsentCard::~WriteConsentCard()
{
    // The card's widgets may outlive it in the page's tree for a moment:
    // nothing may call back into a card that is gone.
    for (GtkWidget* widget : { keep_button_, erase_button_, confirm_entry_ })
        g_signal_handlers_disconnect_by_data(widget, this);
}

bool WriteConsentCard::erase_chosen() const
{
    return gtk_check_button_get_active(GTK_CHECK_BUTTON(erase_button_));
}

std::string WriteConsentCard::typed() const
{
    return gtk_editable_get_text(GTK_EDITABLE(confirm_entry_));
}

bool WriteConsentCard::update(const DeviceEntry* device, bool erase_only, bool busy)
{
    if (erase_only)
        gtk_check_button_set_active(GTK_CHECK_BUTTON(erase_button_), TRUE);
    // Erasing is the only mode there: no choice to show, only the entry.
    gtk_widget_set_visible(keep_button_, !erase_only);
    gtk_widget_set_visible(erase_button_, !erase_only);
    const bool erase = erase_chosen();
    std::string text;
    if (device) {
        const std::string name = write_device_label(*device);
        text = erase ? printf_text(_("This test writes random data over %s. Everything on it is lost."), name.c_str())
                     : printf_text(_("This test writes to %s. It reads each stretch first and writes the same "
                                       "data back, so nothing should be lost, but a crash or power cut while it "
                                       "runs can damage the data: have a backup."),
                                     name.c_str());
    }
    gtk_label_set_text(GTK_LABEL(label_), text.c_str());
    gtk_widget_set_visible(confirm_entry_, erase);
    if (device) {
        // The word is the daemon's (Device.EraseConfirmation): the serial,
        // or the node of a device without one.
        const std::string expected = write_confirmation(*device);
        const std::string hint = expected == device->node
            ? printf_text(_("Type the device node %s to confirm"), expected.c_str())
            : printf_text(_("Type the serial number %s to confirm"), expected.c_str());
        gtk_entry_set_placeholder_text(GTK_ENTRY(confirm_entry_), hint.c_str());
    }
    const std::string blocker = device && !busy ? write_blocker(*device) : std::string();
    gtk_label_set_text(GTK_LABEL(blocker_label_), blocker.c_str());
    gtk_widget_set_visible(blocker_label_, !blocker.empty());
    gtk_widget_set_sensitive(keep_button_, !busy);
    gtk_widget_set_sensitive(erase_button_, !busy);
    gtk_widget_set_sensitive(confirm_entry_, !busy);
    return blocker.empty();
}

bool WriteConsentCard::consented(const DeviceEntry& device) const
{
    if (!write_blocker(device).empty())
        return false;
    return !erase_chosen() || write_confirmed(device, typed());
}

SavedValueMap WriteConsentCard::take_options(const SavedValueMap& settings)
{
    const bool erase = erase_chosen();
    SavedValueMap options = write_options(settings, erase ? WriteMode::Destroy : WriteMode::Preserve, typed());
    if (erase)
        gtk_editable_set_text(GTK_EDITABLE(confirm_entry_), "");
    return options;
}

void WriteConsentCard::on_mode_toggled(GtkCheckButton* button, gpointer self)
{
    auto* card = static_cast<WriteConsentCard*>(self);
    card->changed_();
    // Erasing is chosen: what the user must do next is type the word.
    if (GTK_WIDGET(button) == card->erase_button_ && gtk_check_button_get_active(button))
        gtk_widget_grab_focus(card->confirm_entry_);
}

void WriteConsentCard::on_confirm_changed(GtkEditable*, gpointer self)
{
    static_cast<WriteConsentCard*>(self)->changed_();
}

} // namespace diskbench::client
