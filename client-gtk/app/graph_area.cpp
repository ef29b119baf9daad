// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph_area.hpp"

#include <adwaita.h>

namespace diskbench::client {

namespace {
constexpr guint frame_interval_ms = 50; // 20 Hz
}

GraphArea::GraphArea()
    : area_(Ref<GtkDrawingArea>::take_floating(GTK_DRAWING_AREA(gtk_drawing_area_new())))
{
    gtk_widget_set_hexpand(widget(), TRUE);
    gtk_widget_set_vexpand(widget(), TRUE);
    gtk_widget_set_size_request(widget(), 360, 240);
    gtk_drawing_area_set_draw_func(area_.get(), &GraphArea::draw, this, nullptr);
    dark_handler_ = g_signal_connect(adw_style_manager_get_default(), "notify::dark", G_CALLBACK(&GraphArea::on_dark_changed), this);
}

GraphArea::~GraphArea()
{
    if (pending_)
        g_source_remove(pending_);
    g_signal_handler_disconnect(adw_style_manager_get_default(), dark_handler_);
    gtk_drawing_area_set_draw_func(area_.get(), nullptr, nullptr, nullptr);
}

ChartTheme GraphArea::theme() const
{
    return adw_style_manager_get_dark(adw_style_manager_get_default()) ? ChartTheme::dark() : ChartTheme::light();
}

void GraphArea::draw(GtkDrawingArea* area, cairo_t* cr, int width, int height, gpointer self)
{
    auto* graph = static_cast<GraphArea*>(self);
    graph->chart_.paint(cr, width, height, graph->theme(), gtk_widget_get_scale_factor(GTK_WIDGET(area)));
}

void GraphArea::changed()
{
    if (!pending_)
        pending_ = g_timeout_add(frame_interval_ms, &GraphArea::on_tick, this);
}

gboolean GraphArea::on_tick(gpointer self)
{
    auto* graph = static_cast<GraphArea*>(self);
    graph->pending_ = 0;
    gtk_widget_queue_draw(graph->widget());
    return G_SOURCE_REMOVE;
}

void GraphArea::redraw_now()
{
    gtk_widget_queue_draw(widget());
}

void GraphArea::on_dark_changed(GObject*, GParamSpec*, gpointer self)
{
    static_cast<GraphArea*>(self)->redraw_now();
}

} // namespace diskbench::client
