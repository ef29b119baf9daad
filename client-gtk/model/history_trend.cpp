// SPDX-License-Identifier: GPL-3.0-or-later
#include "history_trend.hpp"

#include "benchmark_pages.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace diskbench::client {

std::vector<TrendChoice> trend_choices(const std::vector<const RecentResult*>& listed)
{
    std::vector<TrendChoice> choices;
    for (const RecentResult* entry : listed)
        for (HeadlineFigure& figure : headline_figures(entry->result.kind, entry->result.summary)) {
            // By label too: a queue-depth sweep's best IOPS reading and its
            // best writing are two trends under one key.
            const bool known = std::any_of(choices.begin(), choices.end(), [&](const TrendChoice& choice) {
                return choice.kind == entry->result.kind && choice.figure.key == figure.key
                    && choice.figure.label == figure.label;
            });
            if (!known)
                choices.push_back({ entry->result.kind, std::move(figure) });
        }
    return choices;
}

std::string trend_date_text(std::int64_t unix_us)
{
    const std::unique_ptr<GDateTime, decltype(&g_date_time_unref)> time(
        g_date_time_new_from_unix_local(unix_us / 1'000'000), g_date_time_unref);
    if (!time)
        return {};
    /* TRANSLATORS: a day on the History trend's time axis, e.g. "22 Nov"; see g_date_time_format() */
    const std::unique_ptr<gchar, decltype(&g_free)> text(g_date_time_format(time.get(), _("%-d %b")), g_free);
    return text ? text.get() : std::string();
}

namespace {

// The day; with the time of day (level 1), with seconds (level 2).
std::string trend_label(std::int64_t unix_us, int level)
{
    std::string text = trend_date_text(unix_us);
    if (level == 0)
        return text;
    const std::unique_ptr<GDateTime, decltype(&g_date_time_unref)> time(
        g_date_time_new_from_unix_local(unix_us / 1'000'000), g_date_time_unref);
    /* TRANSLATORS: a time of day on the History trend's axis, after the day, e.g. "22 Nov 14:03" */
    const char* format = level == 1 ? _("%H:%M") : _("%H:%M:%S");
    const std::unique_ptr<gchar, decltype(&g_free)> clock(time ? g_date_time_format(time.get(), format) : nullptr, g_free);
    return clock ? text + " " + clock.get() : text;
}

} // namespace

std::vector<std::string> trend_labels(const std::vector<TrendPoint>& points)
{
    // Each label as short as it can be while it differs from its neighbours'
    // at the same precision.
    std::vector<std::string> labels;
    for (std::size_t i = 0; i < points.size(); ++i) {
        int level = 0;
        for (; level < 2; ++level) {
            const std::string mine = trend_label(points[i].at_us, level);
            const bool before = i > 0 && trend_label(points[i - 1].at_us, level) == mine;
            const bool after = i + 1 < points.size() && trend_label(points[i + 1].at_us, level) == mine;
            if (!before && !after)
                break;
        }
        labels.push_back(trend_label(points[i].at_us, level));
    }
    return labels;
}

std::string trend_choice_label(const TrendChoice& choice)
{
    const BenchmarkPage* page = benchmark_page(choice.kind);
    const std::string kind = page ? std::string(_(page->title.c_str())) : choice.kind;
    /* TRANSLATORS: a figure whose trend the History page draws: "Seek: access time" */
    return printf_text(_("%s: %s"), kind.c_str(), choice.figure.label.c_str());
}

std::vector<TrendPoint> trend_points(const std::vector<const RecentResult*>& listed, const TrendChoice& choice)
{
    std::vector<TrendPoint> points;
    for (const RecentResult* entry : listed) {
        if (entry->result.kind != choice.kind)
            continue;
        // Not a run whose figure of that key means another thing (a sweep
        // that wrote, on the trend of one that read).
        const std::vector<HeadlineFigure> figures = headline_figures(entry->result.kind, entry->result.summary);
        if (std::any_of(figures.begin(), figures.end(), [&](const HeadlineFigure& figure) {
                return figure.key == choice.figure.key && figure.label != choice.figure.label;
            }))
            continue;
        const double value = number_of(entry->result.summary, choice.figure.key.c_str(), NAN);
        if (std::isfinite(value))
            points.push_back({ taken_at_us(entry->result), value, entry->path });
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const TrendPoint& a, const TrendPoint& b) { return a.at_us < b.at_us; });
    return points;
}

} // namespace diskbench::client
