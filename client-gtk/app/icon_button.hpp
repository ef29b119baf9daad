// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtk/gtk.h>

namespace diskbench::client {

// Names a button that shows only an icon. An icon says nothing to Orca,
// and GTK 4.8 names such a button after its class ("GtkMenuButton"): the
// tooltip a mouse user sees is its accessible name too.
inline void name_icon_button(GtkWidget* button, const char* name)
{
    gtk_widget_set_tooltip_text(button, name);
    gtk_accessible_update_property(GTK_ACCESSIBLE(button), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

// Names a drop-down. GTK 4.8 reads a GtkDropDown to Orca as its inner
// toggle button, which has no name of its own ("GtkToggleButton"): the
// name goes on both.
inline void name_drop_down(GtkWidget* drop_down, const char* name)
{
    gtk_widget_set_tooltip_text(drop_down, name);
    gtk_accessible_update_property(GTK_ACCESSIBLE(drop_down), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
    for (GtkWidget* child = gtk_widget_get_first_child(drop_down); child; child = gtk_widget_get_next_sibling(child))
        if (GTK_IS_TOGGLE_BUTTON(child))
            gtk_accessible_update_property(GTK_ACCESSIBLE(child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}

} // namespace diskbench::client
