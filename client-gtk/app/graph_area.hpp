// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../chart/chart.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <string>

namespace diskbench::client {

// A GtkDrawingArea that draws a Chart, in the light or dark palette of the
// current style, at the widget's scale factor. Live updates call
// changed(): redraws are coalesced to at most 20 per second, so a flood of
// samples costs at most 20 frames. While a job runs (set_live) it also
// redraws on its own every live_interval_ms, so a page whose points come
// slowly (a surface map's bucket that takes minutes) still moves at more
// than 10 frames a second; with nothing running it draws only on change.
class GraphArea {
public:
    GraphArea();
    ~GraphArea();
    GraphArea(const GraphArea&) = delete;
    GraphArea& operator=(const GraphArea&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return GTK_WIDGET(area_.get()); }
    [[nodiscard]] Chart& chart() noexcept { return chart_; }
    [[nodiscard]] const Chart& chart() const noexcept { return chart_; }

    // The data changed: redraw soon (≤ 20 Hz).
    void changed();
    // Size/theme independent change that must show now (new spec, cleared).
    void redraw_now();
    // A job runs on this graph's page: keep redrawing (see above).
    void set_live(bool live);
    [[nodiscard]] bool live() const noexcept { return live_timer_ != 0; }

    // 12.5 frames a second: at least 10 even when the main loop is late.
    static constexpr unsigned live_interval_ms = 80;

    [[nodiscard]] ChartTheme theme() const;

    // What Orca reads for the picture: its name (the page and the view,
    // "Seek graph: Latency") and a description (the headline figures, or
    // what the page is doing). Only changes are passed on.
    void describe(const std::string& name, const std::string& description);
    [[nodiscard]] const std::string& description() const noexcept { return description_; }

private:
    static void draw(GtkDrawingArea* area, cairo_t* cr, int width, int height, gpointer self);
    static gboolean on_tick(gpointer self);
    static gboolean on_live_tick(gpointer self);
    static void on_dark_changed(GObject*, GParamSpec*, gpointer self);

    Ref<GtkDrawingArea> area_;
    Chart chart_ { ChartSpec {} };
    guint pending_ = 0;
    guint live_timer_ = 0;
    gulong dark_handler_ = 0;
    std::string name_, description_;
};

} // namespace diskbench::client
