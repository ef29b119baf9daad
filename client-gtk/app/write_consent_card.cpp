// SPDX-License-Identifier: GPL-3.0-or-later
#include "write_consent_card.hpp"

#include "../model/write_consent.hpp"
#include "text/printf_text.hpp"

#include "ui_file.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

WriteConsentCard::WriteConsentCard(std::function<void()> changed)
    : changed_(std::move(changed))
{
    // Declared in client-gtk/ui/write-consent-card.ui (the GResource); the
    // builder's reference goes with it, the card keeps its own.
    const UiFile ui("write-consent-card.ui");
    card_ = Ref<GtkWidget>::add(ui.widget("card"));
    label_ = ui.widget("label");
    keep_button_ = ui.widget("keep_button");
    erase_button_ = ui.widget("erase_button");
    erase_only_label_ = ui.widget("erase_only_label");
    confirm_entry_ = ui.widget("confirm_entry");
    blocker_label_ = ui.widget("blocker_label");
    // Both: GTK deactivates the old member of a group (its "toggled") before
    // it activates the new one, so keep's signal alone comes too early.
    g_signal_connect(keep_button_, "toggled", G_CALLBACK(&WriteConsentCard::on_mode_toggled), this);
    g_signal_connect(erase_button_, "toggled", G_CALLBACK(&WriteConsentCard::on_mode_toggled), this);
    g_signal_connect(confirm_entry_, "changed", G_CALLBACK(&WriteConsentCard::on_confirm_changed), this);
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
    gtk_widget_set_visible(erase_only_label_, erase_only);
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
