// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cairo.h>
#include <glib-object.h>
#include <pango/pango-font.h>

#include <memory>

namespace diskbench::client {

// Owning pointers for the C handles the charts use, so every early return
// and exception releases them.
struct CairoDeleter {
    void operator()(cairo_t* cr) const noexcept { cairo_destroy(cr); }
    void operator()(cairo_surface_t* surface) const noexcept { cairo_surface_destroy(surface); }
};
struct GObjectDeleter {
    void operator()(gpointer object) const noexcept { g_object_unref(object); }
};
struct FontDescriptionDeleter {
    void operator()(PangoFontDescription* font) const noexcept { pango_font_description_free(font); }
};
struct GFreeDeleter {
    void operator()(gpointer memory) const noexcept { g_free(memory); }
};

using CairoPtr = std::unique_ptr<cairo_t, CairoDeleter>;
using SurfacePtr = std::unique_ptr<cairo_surface_t, CairoDeleter>;
template <typename T> using GObjectPtr = std::unique_ptr<T, GObjectDeleter>;
using FontDescriptionPtr = std::unique_ptr<PangoFontDescription, FontDescriptionDeleter>;
using GCharPtr = std::unique_ptr<gchar, GFreeDeleter>;

} // namespace diskbench::client
