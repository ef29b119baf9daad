// SPDX-License-Identifier: GPL-3.0-or-later
// A chart as a PNG, SVG or PDF file, with a title saying what it shows.
#include "chart.hpp"

#include "chart_file.hpp"
#include "chart_handles.hpp"
#include "chart_text.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace diskbench::client {

namespace {

// PNGs are drawn at twice the size, sharp on HiDPI screens and in print.
constexpr double png_scale = 2.0;

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length)
{
    static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
    return CAIRO_STATUS_SUCCESS;
}

// The title in a band at the top, then the chart in the rest.
void draw_titled(cairo_t* cr, const Chart& chart, const std::string& title, double width, double height,
                 const ChartTheme& theme)
{
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_set_source_rgba(cr, theme.background.red, theme.background.green, theme.background.blue, 1);
    cairo_fill(cr);
    double title_height = 0;
    if (!title.empty()) {
        const double pad = std::round(theme.font_size * 0.5);
        const ChartText text(cr, theme.font_size * 1.3);
        const TextSize size = text.measure(title);
        text.draw(cr, title, std::max(pad, std::round((width - size.width) / 2)), pad, theme.foreground);
        title_height = std::ceil(size.height + pad);
    }
    cairo_save(cr);
    cairo_translate(cr, 0, title_height);
    chart.paint_uncached(cr, width, height - title_height, theme);
    cairo_restore(cr);
}

// Renders into `bytes`; returns the Cairo status.
cairo_status_t render(const Chart& chart, ExportFormat format, const std::string& title, double width, double height,
                      const ChartTheme& theme, std::string& bytes)
{
    SurfacePtr surface;
    switch (format) {
    case ExportFormat::Png:
        surface.reset(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, static_cast<int>(std::ceil(width * png_scale)),
                                                 static_cast<int>(std::ceil(height * png_scale))));
        cairo_surface_set_device_scale(surface.get(), png_scale, png_scale);
        break;
    case ExportFormat::Svg:
        // The *_for_stream variants of cairo_svg/pdf_surface_create: the
        // bytes go to memory first, so the file is written whole or not at all.
        surface.reset(cairo_svg_surface_create_for_stream(append_bytes, &bytes, width, height));
        break;
    case ExportFormat::Pdf:
        surface.reset(cairo_pdf_surface_create_for_stream(append_bytes, &bytes, width, height));
        break;
    }
    if (const cairo_status_t status = cairo_surface_status(surface.get()); status != CAIRO_STATUS_SUCCESS)
        return status;
    {
        const CairoPtr cr(cairo_create(surface.get()));
        draw_titled(cr.get(), chart, title, width, height, theme);
        if (const cairo_status_t status = cairo_status(cr.get()); status != CAIRO_STATUS_SUCCESS)
            return status;
    }
    if (format == ExportFormat::Png)
        return cairo_surface_write_to_png_stream(surface.get(), append_bytes, &bytes);
    cairo_surface_finish(surface.get()); // writes the document's end
    return cairo_surface_status(surface.get());
}

// Translated messages use printf formats, which msgfmt --check-format verifies.
std::string printf_message(const char* format, const char* argument)
{
    const GCharPtr text(g_strdup_printf(format, argument));
    return text.get();
}

std::string printf_message(const char* format, const char* first, const char* second)
{
    const GCharPtr text(g_strdup_printf(format, first, second));
    return text.get();
}

} // namespace

std::optional<ExportFormat> export_format_for(std::string_view path)
{
    const auto dot = path.rfind('.');
    if (dot == std::string_view::npos || path.find('/', dot) != std::string_view::npos)
        return std::nullopt;
    std::string extension(path.substr(dot));
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == ".png")
        return ExportFormat::Png;
    if (extension == ".svg")
        return ExportFormat::Svg;
    if (extension == ".pdf")
        return ExportFormat::Pdf;
    return std::nullopt;
}

std::string export_chart(const Chart& chart, const std::string& path, ExportFormat format, const std::string& title,
                         double width, double height, const ChartTheme& theme)
{
    // Cairo's image surfaces end at 32767 pixels; PNGs are drawn at twice the size.
    if (!(width >= 16 && height >= 16 && width <= 8192 && height <= 8192))
        /* TRANSLATORS: exporting a graph as a picture failed */
        return _("The picture size must be between 16 and 8192 pixels");
    std::string bytes;
    if (const cairo_status_t status = render(chart, format, title, width, height, theme, bytes);
        status != CAIRO_STATUS_SUCCESS)
        /* TRANSLATORS: exporting a graph failed while drawing it; %s is Cairo's (English) reason */
        return printf_message(_("Could not draw the graph: %s"), cairo_status_to_string(status));
    if (const int error = write_file_atomically(path, bytes); error != 0) {
        const GCharPtr name(g_filename_display_name(path.c_str()));
        /* TRANSLATORS: exporting a graph failed; the first %s is the file name, the second the system's reason,
           e.g. "No such file or directory" */
        return printf_message(_("Could not save “%s”: %s"), name.get(), g_strerror(error));
    }
    return {};
}

} // namespace diskbench::client
