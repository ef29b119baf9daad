// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_background.hpp"

#include <cmath>

namespace diskbench::client {

namespace {

void set_colour(cairo_t* cr, Rgba colour, double alpha = 1.0)
{
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha * alpha);
}

// Lines one pixel wide on the pixel grid (half-pixel centres) stay sharp.
double crisp(double at) noexcept
{
    return std::floor(at) + 0.5;
}

void paint_grid_and_axes(cairo_t* cr, const ChartFrame& frame, const ChartTheme& theme)
{
    const PlotArea& area = frame.area;
    const double right = area.left + area.width;
    const double bottom = area.top + area.height;
    cairo_set_line_width(cr, 1);
    // Grid lines inside the plot; the one at the bottom is the axis itself.
    for (const AxisLabel& label : frame.y_labels) {
        if (label.tick >= bottom - 0.5)
            continue;
        cairo_move_to(cr, area.left, crisp(label.tick));
        cairo_line_to(cr, right, crisp(label.tick));
    }
    set_colour(cr, theme.grid);
    cairo_stroke(cr);

    // The axes lie just outside the plot area, so data never hides them.
    const double tick_length = std::round(frame.font_size * 0.4);
    cairo_move_to(cr, area.left - 0.5, area.top);
    cairo_line_to(cr, area.left - 0.5, bottom + 0.5);
    cairo_line_to(cr, right, bottom + 0.5);
    for (const AxisLabel& label : frame.x_labels) {
        cairo_move_to(cr, crisp(label.tick), bottom + 1);
        cairo_line_to(cr, crisp(label.tick), bottom + 1 + tick_length);
    }
    set_colour(cr, theme.foreground, 0.55);
    cairo_stroke(cr);

    if (frame.secondary) {
        // The right-hand axis in the secondary series' colour: which line it
        // belongs to shows without reading the legend.
        cairo_move_to(cr, right + 0.5, area.top);
        cairo_line_to(cr, right + 0.5, bottom + 0.5);
        for (const AxisLabel& label : frame.y2_labels) {
            cairo_move_to(cr, right + 1, crisp(label.tick));
            cairo_line_to(cr, right + 1 + tick_length, crisp(label.tick));
        }
        set_colour(cr, theme.secondary);
        cairo_stroke(cr);
    }
}

void paint_legend(cairo_t* cr, const ChartFrame& frame, const ChartTheme& theme, const ChartText& text)
{
    for (const LegendEntry& entry : frame.legend) {
        const Rgba colour = entry.item.role == LegendRole::Reference ? theme.overlay_colour(entry.item.index)
            : entry.item.role == LegendRole::Secondary                ? theme.secondary
                                                                      : theme.current_colour(entry.item.index);
        set_colour(cr, colour);
        if (entry.item.role == LegendRole::Current && entry.item.line && theme.second_round(entry.item.index)) {
            // A dotted line's entry: hollow, so two entries of one colour differ.
            cairo_save(cr);
            cairo_set_line_width(cr, 2);
            cairo_rectangle(cr, entry.swatch_x + 1, entry.swatch_y + 1, entry.swatch_size - 2, entry.swatch_size - 2);
            cairo_stroke(cr);
            cairo_restore(cr);
        } else {
            cairo_rectangle(cr, entry.swatch_x, entry.swatch_y, entry.swatch_size, entry.swatch_size);
            cairo_fill(cr);
        }
        text.draw(cr, entry.item.text, entry.text_x, entry.text_y, theme.foreground);
    }
}

} // namespace

void paint_chart_background(cairo_t* cr, const ChartFrame& frame, const ChartTheme& theme)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, frame.width, frame.height);
    set_colour(cr, theme.background);
    cairo_fill(cr);

    const ChartText text(cr, frame.font_size);
    if (frame.axes) {
        paint_grid_and_axes(cr, frame, theme);
        for (const AxisLabel& label : frame.y_labels)
            text.draw(cr, label.text, label.x, label.y, theme.foreground);
        for (const AxisLabel& label : frame.x_labels)
            text.draw(cr, label.text, label.x, label.y, theme.foreground);
        for (const AxisLabel& label : frame.y2_labels)
            text.draw(cr, label.text, label.x, label.y, theme.foreground);
        paint_legend(cr, frame, theme, text);
    }
    if (!frame.placeholder.empty()) {
        // Dimmed: it says there is nothing yet, it is not data.
        Rgba dim = theme.foreground;
        dim.alpha *= 0.55;
        text.draw(cr, frame.placeholder, frame.placeholder_x, frame.placeholder_y, dim);
    }
    cairo_restore(cr);
}

} // namespace diskbench::client
