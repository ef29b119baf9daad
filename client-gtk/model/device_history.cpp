// SPDX-License-Identifier: GPL-3.0-or-later
#include "device_history.hpp"

#include "benchmark_pages.hpp"
#include "contract/benchmark_kinds.hpp"
#include "printf_text.hpp"
#include "saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <span>
#include <string_view>

namespace diskbench::client {

std::int64_t taken_at_us(const SavedResult& result)
{
    return result.finished_at_us ? result.finished_at_us : result.started_at_us;
}

HistorySubject subject_for_path(const std::vector<RecentResult>& results, const std::string& path)
{
    HistorySubject subject;
    const RecentResult* newest = nullptr;
    for (const RecentResult& entry : results) {
        if (entry.result.target_kind == "directory") {
            if (entry.result.target == path)
                subject.folder = path;
            continue;
        }
        if (text_of(entry.result.device_info, "node") == path
            && (!newest || taken_at_us(entry.result) > taken_at_us(newest->result)))
            newest = &entry;
    }
    if (newest && subject.folder.empty())
        subject.device_info = newest->result.device_info;
    return subject;
}

bool belongs_to(const SavedResult& result, const HistorySubject& subject)
{
    if (result.target_kind == "directory")
        return !subject.folder.empty() && result.target == subject.folder;
    // An empty identity (nothing selected, an unknown node) matches nothing.
    return !subject.device_info.empty() && subject.folder.empty() && same_device(result.device_info, subject.device_info);
}

std::vector<const RecentResult*> history_of(const std::vector<RecentResult>& results, const HistorySubject& subject)
{
    std::vector<const RecentResult*> listed;
    for (const RecentResult& entry : results)
        if (belongs_to(entry.result, subject))
            listed.push_back(&entry);
    std::stable_sort(listed.begin(), listed.end(), [](const RecentResult* a, const RecentResult* b) {
        return taken_at_us(a->result) > taken_at_us(b->result);
    });
    return listed;
}

namespace {

struct Candidate {
    std::string_view key;
    const char* label; // N_() marked
    Unit unit;
};

// TRANSLATORS: names of a result's headline figures in the History list and
// its trend, e.g. "access time 8.50 ms", "read 512 MB/s".
constexpr Candidate seek_figures[] = {
    { "latency_mean_us", N_("access time"), Unit::Microseconds },
    { "latency_p99_us", N_("p99"), Unit::Microseconds },
};
constexpr Candidate random_figures[] = {
    { "iops", N_("IOPS"), Unit::Iops },
    { "latency_mean_us", N_("mean latency"), Unit::Microseconds },
};
constexpr Candidate qd_sweep_figures[] = {
    { "best_iops", N_("best IOPS"), Unit::Iops },
};
// Every other kind: throughput first, in the words the pages use.
constexpr Candidate common_figures[] = {
    { "throughput_mb_s", N_("throughput"), Unit::MegabytesPerSecond },
    { "read_mb_s", N_("read"), Unit::MegabytesPerSecond },
    { "write_mb_s", N_("write"), Unit::MegabytesPerSecond },
    { "iops", N_("IOPS"), Unit::Iops },
    { "latency_mean_us", N_("mean latency"), Unit::Microseconds },
};

bool has_number(const SavedValueMap& summary, std::string_view key)
{
    return std::isfinite(number_of(summary, std::string(key).c_str(), NAN));
}

// "seq1m_q8t1_read_throughput_mb_s" -> "seq1m q8t1 read",
// "write.files_s" -> "write"
std::string label_from_key(std::string_view key, std::string_view suffix)
{
    std::string label(key.substr(0, key.size() - suffix.size()));
    while (!label.empty() && (label.back() == '_' || label.back() == '.'))
        label.pop_back();
    std::replace(label.begin(), label.end(), '_', ' ');
    std::replace(label.begin(), label.end(), '.', ' ');
    return label;
}

} // namespace

std::vector<HeadlineFigure> headline_figures(const std::string& kind, const SavedValueMap& summary, std::size_t limit)
{
    std::vector<HeadlineFigure> figures;
    const auto add = [&](std::string_view key, std::string label, Unit unit) {
        if (figures.size() >= limit || !has_number(summary, key))
            return;
        if (std::any_of(figures.begin(), figures.end(), [&](const HeadlineFigure& f) { return f.key == key; }))
            return;
        figures.push_back({ std::string(key), std::move(label), unit });
    };
    std::span<const Candidate> candidates = common_figures;
    if (kind == contract::kinds::seek)
        candidates = seek_figures;
    else if (kind == contract::kinds::random)
        candidates = random_figures;
    else if (kind == contract::kinds::qd_sweep)
        candidates = qd_sweep_figures;
    for (const Candidate& candidate : candidates)
        add(candidate.key, _(candidate.label), candidate.unit);
    // Profiles (device and folder) in the order their tests ran, named as
    // the user knows them: "SEQ1M Q8T1 1701 MB/s", "SEQ1M Q8T1 read …".
    for (const std::string& test : split_profile_tests(text_of(summary, "tests"))) {
        const std::string key = profile_summary_key(test);
        add(key + ".throughput_mb_s", test, Unit::MegabytesPerSecond);
        /* TRANSLATORS: a profile test's read figure, e.g. "SEQ1M Q8T1 read" */
        add(key + ".read_mb_s", printf_text(_("%s read"), test.c_str()), Unit::MegabytesPerSecond);
        /* TRANSLATORS: a profile test's write figure, e.g. "SEQ1M Q8T1 write" */
        add(key + ".write_mb_s", printf_text(_("%s write"), test.c_str()), Unit::MegabytesPerSecond);
    }
    // Kinds whose figures carry a test's or phase's name (profile:
    // "seq1m_q8t1_read_throughput_mb_s", small-files: "write_files_s"): the
    // rates in the summary's order, the slowest/fastest pass left out.
    for (const auto& [key, value] : summary) {
        const std::string_view name = key;
        if (name.ends_with("_min_mb_s") || name.ends_with("_max_mb_s"))
            continue;
        if (name.ends_with("throughput_mb_s"))
            add(name, label_from_key(name, "throughput_mb_s"), Unit::MegabytesPerSecond);
        else if (name.ends_with("_mb_s"))
            add(name, label_from_key(name, "_mb_s"), Unit::MegabytesPerSecond);
    }
    for (const auto& [key, value] : summary) {
        const std::string_view name = key;
        if (name.ends_with("_ops_s") || name.ends_with("_files_s"))
            add(name, label_from_key(name, name.ends_with("_ops_s") ? "_ops_s" : "_files_s"), Unit::OperationsPerSecond);
    }
    return figures;
}

std::string headline_text(const std::string& kind, const SavedValueMap& summary, std::size_t limit)
{
    std::string text;
    for (const HeadlineFigure& figure : headline_figures(kind, summary, limit)) {
        const std::string value = format_value(number_of(summary, figure.key.c_str(), 0), figure.unit);
        text += (text.empty() ? "" : "  ·  ") + (figure.label.empty() ? value : figure.label + " " + value);
    }
    return text.empty() ? "–" : text;
}

std::vector<TrendChoice> trend_choices(const std::vector<const RecentResult*>& listed)
{
    std::vector<TrendChoice> choices;
    for (const RecentResult* entry : listed)
        for (HeadlineFigure& figure : headline_figures(entry->result.kind, entry->result.summary)) {
            const bool known = std::any_of(choices.begin(), choices.end(), [&](const TrendChoice& choice) {
                return choice.kind == entry->result.kind && choice.figure.key == figure.key;
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
        const double value = number_of(entry->result.summary, choice.figure.key.c_str(), NAN);
        if (std::isfinite(value))
            points.push_back({ taken_at_us(entry->result), value, entry->path });
    }
    std::stable_sort(points.begin(), points.end(),
                     [](const TrendPoint& a, const TrendPoint& b) { return a.at_us < b.at_us; });
    return points;
}

} // namespace diskbench::client
