// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <string>

namespace diskbench::client {

// One GtkBuilder file of the app's GResource (client-gtk/ui/, compiled in
// by client-gtk/meson.build) and its objects by id. The builder holds a
// reference to each object until it goes: a caller that keeps a widget
// takes its own (Ref::add) before then.
class UiFile {
public:
    explicit UiFile(const char* name)
        : builder_(Ref<GtkBuilder>::adopt(
              gtk_builder_new_from_resource((std::string("/org/diskbench/DiskBench/ui/") + name).c_str())))
    {
    }

    // The widget with `id`. A missing id is a mistake in this program,
    // not in its input: it stops here, naming it, not later at a null.
    [[nodiscard]] GtkWidget* widget(const char* id) const
    {
        GObject* object = gtk_builder_get_object(builder_.get(), id);
        if (!object || !GTK_IS_WIDGET(object))
            g_error("the app's .ui files have no widget \"%s\"", id);
        return GTK_WIDGET(object);
    }

private:
    Ref<GtkBuilder> builder_;
};

} // namespace diskbench::client
