// SPDX-License-Identifier: GPL-3.0-or-later
#include "fault_map.hpp"

#include "contract/job_states.hpp"
#include "contract/kinds/surface.hpp"
#include "kinds/surface_faults.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>

namespace diskbench::client {

namespace surface_keys = contract::kinds::keys::surface;

namespace {

// GNOME's palette (green 4, yellow 4, red 4, light 3): the cells' colours,
// also in the legend. Red 4, not the chart's red 3 (temperature).
struct Rgb {
    double r, g, b;
};
constexpr Rgb good_colour { 0x2e / 255.0, 0xc2 / 255.0, 0x7e / 255.0 };
constexpr Rgb slow_colour { 0xf5 / 255.0, 0xc2 / 255.0, 0x11 / 255.0 };
constexpr Rgb bad_colour { 0xc0 / 255.0, 0x1c / 255.0, 0x28 / 255.0 };
constexpr Rgb unread_colour { 0xde / 255.0, 0xdd / 255.0, 0xda / 255.0 };

constexpr int cell_px = 10;
constexpr int gap_px = 2;

Rgb colour_of(CellState state)
{
    switch (state) {
    case CellState::Good: return good_colour;
    case CellState::Slow: return slow_colour;
    case CellState::Bad: return bad_colour;
    case CellState::Unread: break;
    }
    return unread_colour;
}

int columns_for(int width)
{
    return std::max(1, (width + gap_px) / (cell_px + gap_px));
}

std::string swatch(const char* hex, const std::string& label)
{
    gchar* escaped = g_markup_escape_text(label.c_str(), -1);
    std::string markup = std::string("<span foreground=\"") + hex + "\">■</span> " + escaped;
    g_free(escaped);
    return markup;
}

} // namespace

FaultMap::FaultMap()
{
    root_ = Ref<GtkWidget>::take_floating(gtk_box_new(GTK_ORIENTATION_VERTICAL, 6));
    GtkWidget* box = root_.get();
    gtk_widget_add_css_class(box, "card");
    GtkWidget* title = gtk_label_new(_("Error scan"));
    gtk_widget_add_css_class(title, "heading");
    gtk_label_set_xalign(GTK_LABEL(title), 0);
    line_ = gtk_label_new(nullptr);
    gtk_label_set_wrap(GTK_LABEL(line_), TRUE);
    gtk_label_set_xalign(GTK_LABEL(line_), 0);
    gtk_label_set_selectable(GTK_LABEL(line_), TRUE);

    grid_area_ = gtk_drawing_area_new();
    gtk_widget_set_hexpand(grid_area_, TRUE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(grid_area_), &FaultMap::draw, this, nullptr);
    g_signal_connect(grid_area_, "resize", G_CALLBACK(&FaultMap::on_resize), this);
    gtk_accessible_update_property(GTK_ACCESSIBLE(grid_area_), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                   _("Map of the disk: one cell per part of the surface"), -1);

    legend_ = gtk_label_new(nullptr);
    gtk_label_set_xalign(GTK_LABEL(legend_), 0);

    list_ = gtk_label_new(nullptr);
    gtk_label_set_xalign(GTK_LABEL(list_), 0);
    gtk_label_set_selectable(GTK_LABEL(list_), TRUE);
    gtk_label_set_wrap(GTK_LABEL(list_), TRUE);
    gtk_widget_add_css_class(list_, "monospace");
    GtkWidget* copy = gtk_button_new_with_label(_("Copy as text"));
    gtk_widget_set_halign(copy, GTK_ALIGN_START);
    g_signal_connect(copy, "clicked", G_CALLBACK(+[](GtkButton* button, gpointer self) {
                         const std::string& text = static_cast<FaultMap*>(self)->text_;
                         gdk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(button)), text.c_str());
                     }),
                     this);
    GtkWidget* details_box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_box_append(GTK_BOX(details_box), list_);
    gtk_box_append(GTK_BOX(details_box), copy);
    details_ = gtk_expander_new(_("Bad ranges and slow spots"));
    gtk_expander_set_child(GTK_EXPANDER(details_), details_box);

    for (GtkWidget* child : { title, line_, grid_area_, legend_, details_ }) {
        gtk_widget_set_margin_start(child, 12);
        gtk_widget_set_margin_end(child, 12);
        gtk_box_append(GTK_BOX(box), child);
    }
    gtk_widget_set_margin_top(title, 8);
    gtk_widget_set_margin_bottom(details_, 8);
    gtk_widget_set_visible(box, FALSE);
}

void FaultMap::show(const std::optional<SavedResult>& result, std::uint64_t device_size)
{
    // A scan that ended without the fault keys is from a daemon before 0.9,
    // which ended the job at the first failed read: no map to show for it.
    const bool old_result = result && result->state != contract::job_states::running
        && !has_key(result->summary, surface_keys::bad_ranges);
    cells_ = result && !old_result ? fault_cells(*result, device_size) : FaultCells {};
    gtk_widget_set_visible(root_.get(), !cells_.cells.empty());
    if (cells_.cells.empty()) {
        line_text_.clear();
        text_.clear();
        return;
    }
    // The line once the scan has said (its summary); while it runs, the cells.
    const bool ended = has_key(result->summary, surface_keys::bad_ranges);
    const SurfaceFaults faults = surface_faults(*result);
    line_text_ = ended ? (faults.has_bad() ? "⚠ " : "✓ ") + surface_fault_line(faults)
                       : std::string(_("Scanning: bad blocks and slow spots are listed when the scan ends."));
    gtk_label_set_text(GTK_LABEL(line_), line_text_.c_str());
    const std::string list = surface_fault_list(faults);
    text_ = ended ? line_text_ + "\n" + list : std::string();
    gtk_label_set_text(GTK_LABEL(list_), list.c_str());
    gtk_widget_set_visible(details_, !list.empty());

    const std::string legend = swatch("#2ec27e", printf_text(_("%zu read"), cells_.good)) + "    "
        + swatch("#f5c211", printf_text(_("%zu slow"), cells_.slow)) + "    "
        + swatch("#c01c28", printf_text(_("%zu with bad blocks"), cells_.bad));
    gtk_label_set_markup(GTK_LABEL(legend_), legend.c_str());
    on_resize(GTK_DRAWING_AREA(grid_area_), gtk_widget_get_width(grid_area_), 0, this);
    gtk_widget_queue_draw(grid_area_);
}

std::string FaultMap::describe() const
{
    return printf_text("bad=%zu slow=%zu good=%zu cells=%zu|", cells_.bad, cells_.slow, cells_.good,
                       cells_.cells.size())
        + line_text_;
}

void FaultMap::on_resize(GtkDrawingArea* area, int width, int, gpointer self)
{
    const auto* map = static_cast<FaultMap*>(self);
    if (width <= 0)
        width = 600; // not laid out yet: a guess, corrected at the first resize
    const auto count = static_cast<int>(map->cells_.cells.size());
    const int rows = std::max(1, (count + columns_for(width) - 1) / columns_for(width));
    gtk_drawing_area_set_content_height(area, rows * (cell_px + gap_px));
}

void FaultMap::draw(GtkDrawingArea*, cairo_t* cr, int width, int, gpointer self)
{
    const auto* map = static_cast<FaultMap*>(self);
    const int columns = columns_for(width);
    for (std::size_t i = 0; i < map->cells_.cells.size(); ++i) {
        const Rgb c = colour_of(map->cells_.cells[i]);
        cairo_set_source_rgb(cr, c.r, c.g, c.b);
        const auto column = static_cast<int>(i % static_cast<std::size_t>(columns));
        const auto row = static_cast<int>(i / static_cast<std::size_t>(columns));
        cairo_rectangle(cr, column * (cell_px + gap_px), row * (cell_px + gap_px), cell_px, cell_px);
        cairo_fill(cr);
    }
}

} // namespace diskbench::client
