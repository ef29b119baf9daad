// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_chart.hpp"

#include "results/job_result.hpp"
#include "text/progress_text.hpp"
#include "types/saved_values.hpp"
#include "../model/pages/page_model.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cstdint>

namespace diskbench::client {


namespace {

std::vector<std::string> names_of(const std::vector<SeriesDeclaration>& series)
{
    std::vector<std::string> names;
    for (const SeriesDeclaration& s : series)
        names.push_back(s.name);
    return names;
}

std::vector<OverlaySource> overlay_sources(const JobEntry& job)
{
    std::vector<OverlaySource> sources;
    for (std::size_t i = 0; i < job.series.size() && i < job.points.size(); ++i)
        sources.push_back({ job.series[i].name, job.series[i].x_unit, job.series[i].y_unit, job.points[i] });
    return sources;
}

std::size_t readings_in(std::span<const OverlaySource> series)
{
    for (const OverlaySource& s : series)
        if (s.name == "temperature")
            return s.points.size();
    return 0;
}

} // namespace

PageChart::PageChart(const BenchmarkPage& page)
    : page_(page)
{
    const PageExtra extra = page_.model ? page_.model->extra : PageExtra::None;
    if (extra == PageExtra::ProfileGrid)
        table_ = std::make_unique<ProfileGrid>();
    else if (extra == PageExtra::FileProfileTable)
        file_table_ = std::make_unique<FileProfileTable>();
}

void PageChart::set_reference(std::optional<SavedResult> reference, std::string label)
{
    references_.clear();
    if (reference)
        references_.push_back({ std::move(*reference), std::move(label) });
}

void PageChart::add_reference(SavedResult reference, std::string label)
{
    const auto same = [&reference](const Reference& kept) {
        return kept.result.kind == reference.kind && kept.result.started_at_us == reference.started_at_us
            && kept.result.target == reference.target;
    };
    if (std::any_of(references_.begin(), references_.end(), same))
        return;
    if (references_.size() == max_references)
        references_.erase(references_.begin());
    // Runs of the same minute would read alike in the legend: "(2)", "(3)".
    const std::string base = label;
    for (int n = 2; std::any_of(references_.begin(), references_.end(),
                                [&label](const Reference& kept) { return kept.label == label; });
         ++n)
        label = base + " (" + std::to_string(n) + ")";
    references_.push_back({ std::move(reference), std::move(label) });
}

void PageChart::set_placeholder(const std::string& text)
{
    graph_.chart().set_placeholder(text);
}

void PageChart::show_temperature(std::span<const OverlaySource> series)
{
    temperature_readings_ = readings_in(series);
    if (std::optional<ChartSeries> overlay = temperature_overlay(view(), series))
        graph_.chart().set_secondary(std::move(*overlay), Unit::Celsius);
    else
        graph_.chart().clear_secondary();
}

void PageChart::rebuild(const JobEntry* live, const std::optional<SavedResult>& opened, const DeviceEntry* device)
{
    Chart& chart = graph_.chart();
    const std::optional<SavedResult> shown = live ? std::optional(saved_result_from_job(*live)) : opened;
    if (page_.generic()) {
        // Drawn from what the run declares (a reference of the same kind has the same series).
        generic_view_ = generic_view(shown && !shown->series.empty() ? shown->series
                                         : has_reference()            ? references_.front().result.series
                                                                      : std::vector<SavedSeries> {});
    }
    std::vector<ChartSeries> current;
    SavedValueMap parameters, summary;
    std::uint64_t size = device ? device->size : 0;
    appended_.clear();
    if (live) {
        current = chart_series_for(view(), shown->series, _("This run"));
        parameters = live->parameters;
        summary = live->summary;
        appended_.assign(live->series.size(), 0);
        last_appended_.assign(live->series.size(), {});
        for (std::size_t i = 0; i < live->series.size() && i < live->points.size(); ++i) {
            appended_[i] = live->points[i].size();
            if (!live->points[i].empty())
                last_appended_[i] = live->points[i].back();
        }
    } else if (opened) {
        current = chart_series_for(view(), opened->series, result_date_text(opened->finished_at_us));
        parameters = opened->parameters;
        summary = opened->summary;
        if (const auto found = opened->device_info.find("size"); found != opened->device_info.end())
            if (const auto* value = std::get_if<std::int64_t>(&found->second))
                size = static_cast<std::uint64_t>(*value);
    }
    ChartSpec spec = spec_for(view(), page_.kind, parameters, summary, page_.target == PageTarget::Device ? size : 0);
    if (spec.x_scale == AxisScale::Categories && page_.target != PageTarget::Device)
        spec.categories = file_table_ ? file_profile_tests(parameters, summary)
                                      : test_categories(summary, shown ? shown->series : std::vector<SavedSeries> {});
    // Categories the shown run cannot give (none shown yet): the reference's.
    if (has_reference() && spec.categories.empty() && page_.model && page_.model->categories)
        spec = spec_for(view(), page_.kind, references_.front().result.parameters,
                        references_.front().result.summary, size);
    chart.set_spec(spec);
    chart.set_current(std::move(current));
    show_temperature(shown ? overlay_sources(shown->series) : std::vector<OverlaySource> {});
    if (live && view().band_min.empty()) {
        // The run's size is known up front: room for all its points, so the
        // append that would outgrow the storage does not cost a slow frame.
        const std::int64_t expected = page_.model && !page_.model->expected_points.empty()
            ? integer_of(parameters, page_.model->expected_points, 0)
            : 0;
        if (expected > 0 && expected <= (1 << 24))
            chart.reserve_points(0, static_cast<std::size_t>(expected));
    }
    std::vector<ChartSeries> overlays;
    for (std::size_t k = 0; k < references_.size(); ++k)
        for (ChartSeries& series : chart_series_for(view(), references_[k].result.series, references_[k].label)) {
            series.overlay = k;
            overlays.push_back(std::move(series));
        }
    if (overlays.empty())
        chart.clear_reference();
    else
        chart.set_reference(std::move(overlays));
    if (table_)
        table_->set(spec.categories, shown ? shown->series : std::vector<SavedSeries> {}, summary,
                    has_reference() ? &references_.front().result.series : nullptr, profile_unit_);
    if (file_table_)
        file_table_->set(file_profile_rows(shown.value_or(SavedResult {})), profile_unit_);
    graph_.redraw_now();
}

void PageChart::append(const JobEntry& job)
{
    // Only what arrived since the last update goes to the chart, so the
    // chart's kept envelopes are updated, not recomputed.
    const std::vector<SeriesRoute> routes = route_series(view(), names_of(job.series));
    for (std::size_t i = 0; i < routes.size() && i < job.points.size() && i < appended_.size(); ++i) {
        const std::vector<SeriesPoint>& points = job.points[i];
        std::size_t from = std::min(appended_[i], points.size());
        // The point we gave last was replaced (a bucket's partial point by
        // a later one): take it back and give the new one.
        if (from > 0 && from == appended_[i] && !(points[from - 1] == last_appended_[i])) {
            --from;
            if (routes[i].line)
                graph_.chart().truncate_points(*routes[i].line, from);
            if (routes[i].band_min)
                graph_.chart().truncate_band(*routes[i].band_min, from, SIZE_MAX);
            if (routes[i].band_max)
                graph_.chart().truncate_band(*routes[i].band_max, SIZE_MAX, from);
        }
        const std::span<const SeriesPoint> fresh = std::span(points).subspan(from);
        if (routes[i].line)
            graph_.chart().append_points(*routes[i].line, fresh);
        if (routes[i].band_min)
            graph_.chart().append_band(*routes[i].band_min, fresh, {});
        if (routes[i].band_max)
            graph_.chart().append_band(*routes[i].band_max, {}, fresh);
        appended_[i] = points.size();
        if (!points.empty())
            last_appended_[i] = points.back();
    }
    // Once a second: a new reading redoes the (short) overlay.
    const std::vector<OverlaySource> sources = overlay_sources(job);
    if (readings_in(sources) != temperature_readings_)
        show_temperature(sources);
    graph_.changed();
}

void PageChart::show_running_bar(const JobEntry* job, const DeviceEntry* device, double fraction, bool running)
{
    graph_.chart().set_running_bar(std::nullopt, 0);
    graph_.set_live(job && running);
    if (!job || !running || view().spec.style != ChartStyle::Bar || page_.target != PageTarget::Device)
        return;
    std::size_t done = 0;
    double last = 0;
    for (std::size_t i = 0; i < job->series.size() && i < job->points.size(); ++i)
        if (job->series[i].name == view().series && !job->points[i].empty()) {
            done = job->points[i].size();
            last = job->points[i].back().x;
        }
    RunningBar bar;
    if (view().spec.x_scale == AxisScale::Categories)
        bar = { static_cast<double>(spec_for(view(), page_.kind, job->parameters, job->summary, 0).categories.size()),
                static_cast<double>(done) };
    else
        bar = sweep_running_bar(job->parameters, device ? device->logical_block_size : 0, done, last);
    if (bar.bars > static_cast<double>(done))
        graph_.chart().set_running_bar(bar.next, std::clamp(fraction * bar.bars - static_cast<double>(done), 0.0, 1.0));
}

} // namespace diskbench::client
