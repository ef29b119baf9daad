// SPDX-License-Identifier: GPL-3.0-or-later
#include "graph_area.hpp"

#include <adwaita.h>

#include <cstdio>
#include <memory>

namespace diskbench::client {

namespace {
constexpr guint frame_interval_ms = 50; // 20 Hz

struct FileCloser {
    void operator()(std::FILE* file) const noexcept { std::fclose(file); }
};

// For the GUI test only: with DISKBENCH_TEST_DRAW_LOG=FILE set, every frame
// drawn appends its time (g_get_monotonic_time(), microseconds) to FILE, so
// the test can count redraws a second during a run. Unset (users): nothing.
std::FILE* draw_log()
{
    static const std::unique_ptr<std::FILE, FileCloser> log([] {
        const char* path = g_getenv("DISKBENCH_TEST_DRAW_LOG");
        return path && *path ? std::fopen(path, "ae") : nullptr;
    }());
    return log.get();
}
} // namespace

GraphArea::GraphArea()
    // An image to Orca, named and described by describe().
    : area_(Ref<GtkDrawingArea>::take_floating(GTK_DRAWING_AREA(
        g_object_new(GTK_TYPE_DRAWING_AREA, "accessible-role", GTK_ACCESSIBLE_ROLE_IMG, nullptr))))
{
    gtk_widget_set_hexpand(widget(), TRUE);
    gtk_widget_set_vexpand(widget(), TRUE);
    gtk_widget_set_size_request(widget(), 280, 240);
    gtk_drawing_area_set_draw_func(area_.get(), &GraphArea::draw, this, nullptr);
    dark_handler_ = g_signal_connect(adw_style_manager_get_default(), "notify::dark", G_CALLBACK(&GraphArea::on_dark_changed), this);
}

GraphArea::~GraphArea()
{
    if (pending_)
        g_source_remove(pending_);
    if (live_timer_)
        g_source_remove(live_timer_);
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
    if (std::FILE* log = draw_log()) {
        std::fprintf(log, "%lld\n", static_cast<long long>(g_get_monotonic_time()));
        std::fflush(log);
    }
}

void GraphArea::set_live(bool live)
{
    if (live && !live_timer_)
        live_timer_ = g_timeout_add(live_interval_ms, &GraphArea::on_live_tick, this);
    else if (!live && live_timer_) {
        g_source_remove(live_timer_);
        live_timer_ = 0;
    }
}

gboolean GraphArea::on_live_tick(gpointer self)
{
    // Only a shown graph draws (GTK skips unmapped widgets), so pages in
    // the background cost nothing.
    gtk_widget_queue_draw(static_cast<GraphArea*>(self)->widget());
    return G_SOURCE_CONTINUE;
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

void GraphArea::describe(const std::string& name, const std::string& description)
{
    if (name != name_) {
        name_ = name;
        gtk_accessible_update_property(GTK_ACCESSIBLE(widget()), GTK_ACCESSIBLE_PROPERTY_LABEL, name_.c_str(), -1);
    }
    if (description != description_) {
        description_ = description;
        gtk_accessible_update_property(GTK_ACCESSIBLE(widget()), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                       description_.c_str(), -1);
    }
}

} // namespace diskbench::client
