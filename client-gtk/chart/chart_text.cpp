// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_text.hpp"

namespace diskbench::client {

ChartText::ChartText(cairo_t* cr, double font_size) : layout_(pango_cairo_create_layout(cr))
{
    const FontDescriptionPtr font(pango_font_description_from_string("Sans"));
    // Absolute size: logical pixels whatever the font map's resolution.
    pango_font_description_set_absolute_size(font.get(), font_size * PANGO_SCALE);
    pango_layout_set_font_description(layout_.get(), font.get());
}

TextSize ChartText::measure(std::string_view text) const
{
    pango_layout_set_text(layout_.get(), text.data(), static_cast<int>(text.size()));
    int width = 0;
    int height = 0;
    pango_layout_get_pixel_size(layout_.get(), &width, &height);
    return { static_cast<double>(width), static_cast<double>(height) };
}

void ChartText::draw(cairo_t* cr, std::string_view text, double x, double y, Rgba colour) const
{
    pango_layout_set_text(layout_.get(), text.data(), static_cast<int>(text.size()));
    pango_cairo_update_layout(cr, layout_.get());
    cairo_set_source_rgba(cr, colour.red, colour.green, colour.blue, colour.alpha);
    cairo_move_to(cr, x, y);
    pango_cairo_show_layout(cr, layout_.get());
}

TextSize TextMeasureCache::measure(std::string_view text, double font_size, double device_scale)
{
    if (!text_ || font_size != font_size_ || device_scale != device_scale_) {
        sizes_.clear();
        text_.reset();
        cr_.reset();
        surface_.reset(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1));
        cairo_surface_set_device_scale(surface_.get(), device_scale, device_scale);
        cr_.reset(cairo_create(surface_.get()));
        text_ = std::make_unique<ChartText>(cr_.get(), font_size);
        font_size_ = font_size;
        device_scale_ = device_scale;
    }
    const std::string key(text);
    if (const auto found = sizes_.find(key); found != sizes_.end())
        return found->second;
    const TextSize size = text_->measure(text);
    // Labels change as data streams in (y ticks, categories); bounded anyway.
    if (sizes_.size() > 4096)
        sizes_.clear();
    sizes_.emplace(key, size);
    return size;
}

} // namespace diskbench::client
