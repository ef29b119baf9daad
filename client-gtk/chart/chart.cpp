// SPDX-License-Identifier: GPL-3.0-or-later
// Chart: its data, and the two things kept between frames so a redraw
// while samples stream costs milliseconds: the background layer (an image
// surface) and the envelopes of long line series.
#include "chart.hpp"

#include "chart_background.hpp"
#include "chart_data.hpp"

#include <cmath>

namespace diskbench::client {

struct Chart::State {
    ChartData data;

    // The layer and what it was drawn for.
    SurfacePtr layer;
    ChartFrame layer_frame;
    ChartTheme layer_theme;
    double layer_scale = 0;

    TextMeasureCache measure;
    PlotArea last_area;
    std::optional<std::pair<double, double>> last_secondary;
    ChartCacheStats stats;

    void forget_envelopes() noexcept
    {
        for (auto* all : { &data.current, &data.reference })
            for (StoredSeries& stored : *all) {
                stored.envelope.clear();
                stored.band_low.clear();
                stored.band_high.clear();
            }
    }
    [[nodiscard]] bool layer_fits(const ChartFrame& frame, const ChartTheme& theme, double scale) const noexcept
    {
        return layer && layer_scale == scale && layer_frame == frame && layer_theme == theme;
    }
    void build_layer(cairo_t* cr, const ChartFrame& frame, const ChartTheme& theme, double scale);
    void update_envelopes(const PlotArea& area);
};

void Chart::State::build_layer(cairo_t* cr, const ChartFrame& frame, const ChartTheme& theme, double scale)
{
    layer.reset();
    // "Similar" to the target: in its memory, ready for the fast copy path.
    SurfacePtr surface(cairo_surface_create_similar_image(cairo_get_target(cr), CAIRO_FORMAT_ARGB32,
                                                          static_cast<int>(std::ceil(frame.width * scale)),
                                                          static_cast<int>(std::ceil(frame.height * scale))));
    if (cairo_surface_status(surface.get()) != CAIRO_STATUS_SUCCESS)
        return;
    cairo_surface_set_device_scale(surface.get(), scale, scale);
    {
        const CairoPtr layer_cr(cairo_create(surface.get()));
        paint_chart_background(layer_cr.get(), frame, theme);
    }
    cairo_surface_flush(surface.get());
    layer = std::move(surface);
    layer_frame = frame;
    layer_theme = theme;
    layer_scale = scale;
    ++stats.layer_builds;
}

void Chart::State::update_envelopes(const PlotArea& area)
{
    if (data.spec.style != ChartStyle::Line || data.spec.x_scale == AxisScale::Log2)
        return;
    for (auto* all : { &data.current, &data.reference })
        for (StoredSeries& stored : *all) {
            const auto columns = static_cast<std::size_t>(std::ceil(area.width));
            if (stored.series.points.size() > columns)
                stored.envelope.update(stored.series.points, stored.sorted, area, stats);
            if (stored.series.band_min.size() > columns && stored.series.band_max.size() > columns) {
                stored.band_low.update(stored.series.band_min, stored.band_sorted, area, stats);
                stored.band_high.update(stored.series.band_max, stored.band_sorted, area, stats);
            }
        }
}

Chart::Chart(ChartSpec spec) : state_(std::make_unique<State>())
{
    state_->data.spec = std::move(spec);
}

Chart::~Chart() = default;
Chart::Chart(Chart&&) noexcept = default;
Chart& Chart::operator=(Chart&&) noexcept = default;

const ChartSpec& Chart::spec() const noexcept
{
    return state_->data.spec;
}

void Chart::set_spec(ChartSpec spec)
{
    state_->data.spec = std::move(spec);
    state_->forget_envelopes();
}

void Chart::set_current(std::vector<ChartSeries> series)
{
    state_->data.current.clear();
    for (ChartSeries& one : series)
        state_->data.current.emplace_back(std::move(one));
}

void Chart::append_points(std::size_t index, std::span<const SeriesPoint> points)
{
    auto& current = state_->data.current;
    if (current.size() <= index)
        current.resize(index + 1);
    current[index].append(points);
}

void Chart::append_band(std::size_t index, std::span<const SeriesPoint> band_min, std::span<const SeriesPoint> band_max)
{
    auto& current = state_->data.current;
    if (current.size() <= index)
        current.resize(index + 1);
    current[index].append_band(band_min, band_max);
}

void Chart::truncate_points(std::size_t index, std::size_t count)
{
    if (index < state_->data.current.size())
        state_->data.current[index].truncate(count);
}

void Chart::truncate_band(std::size_t index, std::size_t min_count, std::size_t max_count)
{
    if (index < state_->data.current.size())
        state_->data.current[index].truncate_band(min_count, max_count);
}

void Chart::set_current_label(std::size_t index, std::string label)
{
    auto& current = state_->data.current;
    if (current.size() <= index)
        current.resize(index + 1);
    current[index].series.label = std::move(label);
}

void Chart::reserve_points(std::size_t index, std::size_t count)
{
    auto& current = state_->data.current;
    if (current.size() <= index)
        current.resize(index + 1);
    current[index].series.points.reserve(count);
}

void Chart::clear_current()
{
    state_->data.current.clear();
}

void Chart::set_reference(std::vector<ChartSeries> series)
{
    state_->data.reference.clear();
    for (ChartSeries& one : series)
        state_->data.reference.emplace_back(std::move(one));
}

void Chart::clear_reference()
{
    state_->data.reference.clear();
}

void Chart::set_secondary(ChartSeries series, Unit unit)
{
    state_->data.secondary.emplace(std::move(series));
    state_->data.secondary_unit = unit;
}

void Chart::clear_secondary()
{
    state_->data.secondary.reset();
}

void Chart::set_running_bar(std::optional<double> x, double fraction)
{
    state_->data.running_x = x;
    state_->data.running_fraction = fraction;
}

void Chart::set_placeholder(std::string text)
{
    state_->data.placeholder = std::move(text);
}

bool Chart::has_data() const noexcept
{
    return state_->data.has_points();
}

void Chart::paint(cairo_t* cr, double width, double height, const ChartTheme& theme, double device_scale)
{
    State& s = *state_;
    const double scale = device_scale > 0 && std::isfinite(device_scale) ? device_scale : 1.0;
    const MeasureText measure = [&](std::string_view text) { return s.measure.measure(text, theme.font_size, scale); };
    const ChartFrame frame = layout_chart(s.data.layout_input(width, height, theme.font_size), measure);
    s.last_area = frame.area;
    s.last_secondary = frame.secondary ? std::optional(std::pair(frame.y2_low, frame.y2_high)) : std::nullopt;
    if (!s.layer_fits(frame, theme, scale))
        s.build_layer(cr, frame, theme, scale);
    if (!s.layer) {
        paint_uncached(cr, width, height, theme); // no memory for the layer: still draw
        return;
    }
    cairo_save(cr);
    cairo_set_source_surface(cr, s.layer.get(), 0, 0);
    cairo_rectangle(cr, 0, 0, width, height);
    cairo_fill(cr);
    cairo_restore(cr);

    if (frame.axes)
        s.update_envelopes(frame.area);
    paint_chart_data(cr, s.data, frame, theme, true);
}

void Chart::paint_uncached(cairo_t* cr, double width, double height, const ChartTheme& theme) const
{
    const ChartText text(cr, theme.font_size);
    const ChartFrame frame = layout_chart(state_->data.layout_input(width, height, theme.font_size),
                                          [&](std::string_view label) { return text.measure(label); });
    paint_chart_background(cr, frame, theme);
    paint_chart_data(cr, state_->data, frame, theme, false);
}

PlotArea Chart::last_plot_area() const noexcept
{
    return state_->last_area;
}

std::optional<std::pair<double, double>> Chart::last_secondary_range() const noexcept
{
    return state_->last_secondary;
}

ChartCacheStats Chart::cache_stats() const noexcept
{
    return state_->stats;
}

} // namespace diskbench::client
