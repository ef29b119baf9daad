// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chart_handles.hpp"
#include "series_painter.hpp"

#include <pango/pangocairo.h>

#include <string>
#include <string_view>
#include <unordered_map>

namespace diskbench::client {

struct TextSize {
    double width = 0, height = 0;
};

// Chart labels through PangoCairo ("Sans" at a size in logical pixels), so
// "µs", Czech and Cyrillic unit names shape and fall back like the rest of
// the desktop. One layout is reused for every label of a frame.
class ChartText {
public:
    // Measures and draws for `cr` as it is now (target, font options, scale).
    ChartText(cairo_t* cr, double font_size);

    [[nodiscard]] TextSize measure(std::string_view text) const;
    // Draws with the top-left corner of the text's logical box at (x, y).
    void draw(cairo_t* cr, std::string_view text, double x, double y, Rgba colour) const;

private:
    GObjectPtr<PangoLayout> layout_;
};

// Remembers label sizes between frames: Chart::paint() lays its axes out on
// every frame, and most labels are the same as last time. Measures on a
// one-pixel image surface at the chart's device scale, so sizes match what
// the cached layer (an image surface at that scale) draws.
class TextMeasureCache {
public:
    TextSize measure(std::string_view text, double font_size, double device_scale);

private:
    double font_size_ = 0, device_scale_ = 0;
    SurfacePtr surface_;
    CairoPtr cr_;
    std::unique_ptr<ChartText> text_;
    std::unordered_map<std::string, TextSize> sizes_;
};

} // namespace diskbench::client
