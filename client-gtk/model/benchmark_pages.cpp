// SPDX-License-Identifier: GPL-3.0-or-later
#include "benchmark_pages.hpp"

#include "types/saved_values.hpp"
#include "text/value_format.hpp"

#include "pages/page_registry.hpp"

#include "contract/kinds/profile.hpp"
#include "contract/kinds/small_files.hpp"
#include "contract/series.hpp"
#include "text/kind_titles.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <charconv>

namespace diskbench::client {

namespace profile_keys = contract::kinds::keys::profile;
namespace small_files_keys = contract::kinds::keys::small_files;

namespace {

// A page of a kind the client knows: its title and summary from the
// client library's table (kinds/<kind>.cpp), the rest from its page model.
BenchmarkPage page_of(const PageModel& model)
{
    const KindTitle* title = kind_title(model.kind);
    return { std::string(model.kind), title ? title->title : std::string(model.kind), model.icon,
             title ? title->summary : "", model.views ? model.views() : std::vector<PageView> {}, model.target,
             &model };
}

std::vector<BenchmarkPage> pages_of(bool read)
{
    std::vector<BenchmarkPage> pages;
    for (const PageModel* model : page_models())
        if ((model->target == PageTarget::Device) == read)
            pages.push_back(page_of(*model));
    return pages;
}

// "throughput.pass2" of a line graph of "throughput" (engine passes.hpp):
// a pass, drawn faintly. Bars and dots of several passes would crowd the
// graph; their median (bars) and union (dots) come under the series' name.
bool is_pass_of(const PageView& view, const std::string& name)
{
    if (view.spec.style != ChartStyle::Line || view.prefix || view.by_name || !view.names.empty())
        return false;
    const std::string stem = view.series + ".pass";
    return name.size() > stem.size() && name.starts_with(stem)
        && name.find_first_not_of("0123456789", stem.size()) == std::string::npos;
}

bool shows(const PageView& view, const std::string& name)
{
    // Its points are in its final series' list (SampleStream): no line of its own.
    if (contract::is_partial_series(name))
        return false;
    if (!view.names.empty())
        return std::find(view.names.begin(), view.names.end(), name) != view.names.end();
    if (view.prefix) {
        // A family of series (QD curves, latency distributions, a run's
        // directions) shows each member once: the median over passes, under
        // the member's own name, not every pass beside it.
        const std::size_t pass = name.rfind(".pass");
        if (pass != std::string::npos && pass + 5 < name.size()
            && name.find_first_not_of("0123456789", pass + 5) == std::string::npos)
            return false;
        return name.starts_with(view.series);
    }
    return name == view.series;
}

} // namespace

PageTarget page_target_from_name(std::string_view target) noexcept
{
    if (target == "device-write")
        return PageTarget::DeviceWrite;
    if (target == "directory")
        return PageTarget::Directory;
    return PageTarget::Device;
}

const std::vector<BenchmarkPage>& benchmark_pages()
{
    static const std::vector<BenchmarkPage> pages = pages_of(true);
    return pages;
}

const BenchmarkPage* benchmark_page(const std::string& kind)
{
    static const std::vector<BenchmarkPage> write_pages = pages_of(false);
    for (const auto* pages : { &benchmark_pages(), &write_pages })
        for (const BenchmarkPage& page : *pages)
            if (page.kind == kind)
                return &page;
    return nullptr;
}

BenchmarkPage page_for_kind(const std::string& kind, std::string_view target, const std::string& title,
                            const std::string& description)
{
    if (const BenchmarkPage* known = benchmark_page(kind)) {
        BenchmarkPage page = *known;
        page.target = page_target_from_name(target);
        return page;
    }
    const PageTarget page_target = page_target_from_name(target);
    // The daemon's description is a paragraph; the page shows its first sentence.
    std::string summary = description;
    if (const std::size_t end = summary.find(". "); end != std::string::npos)
        summary.erase(end + 1);
    return { kind, title.empty() ? kind : title,
             page_target == PageTarget::Directory ? "folder-symbolic" : "applications-engineering-symbolic", summary, {},
             page_target };
}

ChartSpec chart_spec_for_series(const SavedSeries& first)
{
    ChartSpec result;
    result.style = first.style == "bar" ? ChartStyle::Bar : first.style == "scatter" ? ChartStyle::Scatter : ChartStyle::Line;
    result.x_unit = unit_from_name(first.x_unit);
    result.y_unit = unit_from_name(first.y_unit);
    if (first.x_unit == "test") {
        result.x_scale = AxisScale::Categories;
        result.x_unit = Unit::Plain;
    }
    // Block sizes and queue depths double from point to point.
    else if (first.x_unit == "depth" || (first.x_unit == "B" && result.style == ChartStyle::Bar))
        result.x_scale = AxisScale::Log2;
    return result;
}

PageView generic_view(const std::vector<SavedSeries>& series)
{
    PageView result { N_("Result"), {}, {}, false, {}, {}, true, {} };
    const SavedSeries* first = nullptr;
    auto has = [&series](const std::string& name) {
        return std::any_of(series.begin(), series.end(), [&name](const SavedSeries& s) { return s.name == name; });
    };
    for (const SavedSeries& s : series) {
        // "-min"/"-max" of a drawn series are its band, not lines of their own.
        const bool band = (s.name.ends_with("-min") || s.name.ends_with("-max")) && has(s.name.substr(0, s.name.size() - 4));
        if (band)
            continue;
        if (!first) {
            first = &s;
            result.spec = chart_spec_for_series(s);
        }
        if (s.style == first->style && s.y_unit == first->y_unit && s.x_unit == first->x_unit)
            result.names.push_back(s.name);
    }
    if (first && result.spec.style == ChartStyle::Line) {
        if (has(first->name + "-min"))
            result.band_min = first->name + "-min";
        if (has(first->name + "-max"))
            result.band_max = first->name + "-max";
    }
    if (result.names.empty())
        result.names.push_back({}); // shows nothing, matches no series name a daemon sends
    return result;
}

std::vector<std::string> test_categories(const SavedValueMap& summary, const std::vector<SavedSeries>& series)
{
    // The profiles' tests, or the tree benchmarks' phases.
    for (const std::string_view key : { profile_keys::tests, small_files_keys::phases }) {
        const std::string listed = text_of(summary, key);
        if (!listed.empty())
            return split_profile_tests(listed);
    }
    double last = -1;
    for (const SavedSeries& s : series)
        if (s.x_unit == "test")
            for (const SeriesPoint& point : s.points)
                last = std::max(last, point.x);
    std::vector<std::string> names;
    // Indices from the daemon: bounded, so a bad value cannot make millions of labels.
    for (int i = 0; i <= static_cast<int>(std::min(last, 255.0)); ++i)
        names.push_back(std::to_string(i + 1));
    return names;
}

std::string summary_line(const SavedValueMap& summary)
{
    struct Suffix {
        std::string_view ending;
        Unit unit;
        std::string_view removed; // from the key, for the figure's name
    };
    // Longest first: "_mb_s", "_ops_s" and "_files_s" (small-files' files
    // per second, "read files 14.9k op/s") also end in "_s".
    static constexpr Suffix suffixes[] = { { "_mb_s", Unit::MegabytesPerSecond, "_mb_s" },
                                           { "_ops_s", Unit::OperationsPerSecond, "_ops_s" },
                                           { "_files_s", Unit::OperationsPerSecond, "_s" },
                                           { "_s", Unit::Seconds, "_s" } };
    std::string text;
    for (const auto& [key, value] : summary) {
        const double* number = std::get_if<double>(&value);
        const std::int64_t* integer = std::get_if<std::int64_t>(&value);
        // A setting the run echoes (the rest between Profiles' tests) is not a figure.
        if ((!number && !integer) || key == profile_keys::interval_s)
            continue;
        for (const Suffix& suffix : suffixes) {
            if (!key.ends_with(suffix.ending) || key.size() == suffix.ending.size())
                continue;
            std::string name = key.substr(0, key.size() - suffix.removed.size());
            // X_min_mb_s and X_max_mb_s only when X_mb_s is missing.
            for (const std::string_view extreme : { "_min", "_max" })
                if (name.ends_with(extreme)
                    && summary.count(name.substr(0, name.size() - extreme.size()) + std::string(suffix.removed)))
                    name.clear();
            if (name.empty())
                break;
            for (char& c : name)
                if (c == '_')
                    c = ' ';
            const double shown = number ? *number : static_cast<double>(*integer);
            text += (text.empty() ? "" : "  ·  ") + series_display_name(name) + " " + format_value(shown, suffix.unit);
            break;
        }
    }
    return text;
}

namespace {

// "cdf-seq1m_q8t1-write" -> "SEQ1M Q8T1 write", "cdf-4096" -> "4 KiB",
// "cdf" -> "latency".
std::string latency_cdf_name(const std::string& name)
{
    if (name == contract::latency_cdf_prefix)
        /* TRANSLATORS: the legend of a run's latency distribution */
        return _("latency");
    std::string what = name.substr(contract::latency_cdf_prefix.size() + 1);
    if (!what.empty() && what.find_first_not_of("0123456789") == std::string::npos)
        return format_value(std::strtod(what.c_str(), nullptr), Unit::Bytes);
    std::string direction;
    if (const std::size_t dash = what.rfind('-'); dash != std::string::npos) {
        direction = series_display_name(what.substr(dash + 1));
        what.erase(dash);
    }
    for (char& c : what)
        c = c == '_' ? ' ' : static_cast<char>(g_ascii_toupper(c));
    return direction.empty() ? what : what + " " + direction;
}

// " · p50 85 µs · p99 420 µs · p99.9 1.2 ms": the points of a latency
// distribution at those shares (the engine puts them in every one).
std::string percentile_marks(const std::vector<SeriesPoint>& points)
{
    std::string text;
    for (const auto& [share, name] : { std::pair { 50.0, "p50" }, { 99.0, "p99" }, { 99.9, "p99.9" } })
        for (const SeriesPoint& point : points)
            if (std::abs(point.y - share) < 1e-6) {
                text += std::string("  ·  ") + name + " " + format_value(point.x, Unit::Microseconds);
                break;
            }
    return text;
}

} // namespace

std::string series_display_name(const std::string& name)
{
    if (contract::is_latency_cdf(name))
        return latency_cdf_name(name);
    // "rnd4k q1t1.throughput" (a figure per test) -> "RND4K Q1T1"
    if (const std::size_t dot = name.find('.'); dot != std::string::npos && dot > 0) {
        std::string test = name.substr(0, dot);
        for (char& c : test)
            c = static_cast<char>(g_ascii_toupper(c));
        const std::string figure = name.substr(dot + 1);
        return figure == "throughput" ? test : test + " " + series_display_name(figure);
    }
    // TRANSLATORS: names of measured series and summary figures of the
    // write and folder benchmarks, as in "write 512 MB/s".
    static const std::pair<const char*, const char*> known[] = {
        { "write", N_("write") },   { "read", N_("read") },       { "throughput", N_("throughput") },
        { "create", N_("create") }, { "delete", N_("delete") },   { "seq write", N_("seq write") },
        { "duration", N_("duration") }, { "throughput-median", N_("median") },
        { "latency_p99", N_("p99") },   { "latency_p99_9", N_("p99.9") },
    };
    for (const auto& [key, translated] : known)
        if (name == key)
            return _(translated);
    return name;
}

std::vector<SeriesRoute> route_series(const PageView& view, const std::vector<std::string>& series_names)
{
    std::vector<SeriesRoute> routes(series_names.size());
    std::size_t next_line = 0;
    for (std::size_t i = 0; i < series_names.size(); ++i)
        if (shows(view, series_names[i]))
            routes[i].line = next_line++;
    for (std::size_t i = 0; i < series_names.size(); ++i)
        if (is_pass_of(view, series_names[i])) {
            routes[i].line = next_line++;
            routes[i].faint = true;
        }
    for (std::size_t i = 0; i < series_names.size(); ++i) {
        if (!view.band_min.empty() && series_names[i] == view.band_min)
            routes[i].band_min = 0;
        if (!view.band_max.empty() && series_names[i] == view.band_max)
            routes[i].band_max = 0;
    }
    return routes;
}

std::string series_label(const PageView& view, const std::string& series_name, const std::string& single_label)
{
    if (view.by_name) {
        const std::string name = series_display_name(series_name);
        return single_label.empty() ? name : single_label + " · " + name;
    }
    if (!view.prefix)
        return single_label;
    // "iops-t4" -> "4 threads"
    int threads = 0;
    const std::string_view digits = std::string_view(series_name).substr(view.series.size());
    std::from_chars(digits.data(), digits.data() + digits.size(), threads);
    gchar* text = g_strdup_printf(g_dngettext(GETTEXT_PACKAGE, "%d thread", "%d threads", static_cast<gulong>(threads)), threads);
    std::string label = text;
    g_free(text);
    if (single_label.empty())
        return label;
    return single_label + " · " + label;
}

std::vector<ChartSeries> chart_series_for(const PageView& view, const std::vector<SavedSeries>& series,
                                          const std::string& label)
{
    std::vector<std::string> names;
    for (const SavedSeries& s : series)
        names.push_back(s.name);
    const std::vector<SeriesRoute> routes = route_series(view, names);
    std::vector<ChartSeries> chart;
    for (std::size_t i = 0; i < series.size(); ++i) {
        const SeriesRoute& route = routes[i];
        if (route.line) {
            if (chart.size() <= *route.line)
                chart.resize(*route.line + 1);
            // A pass has no legend entry of its own: it is the median's.
            chart[*route.line].label = route.faint ? std::string() : series_label(view, series[i].name, label);
            if (contract::is_latency_cdf(series[i].name) && !route.faint)
                chart[*route.line].label += percentile_marks(series[i].points);
            chart[*route.line].points = series[i].points;
            chart[*route.line].faint = route.faint;
        }
    }
    for (std::size_t i = 0; i < series.size(); ++i) {
        const SeriesRoute& route = routes[i];
        if (route.band_min && *route.band_min < chart.size())
            chart[*route.band_min].band_min = series[i].points;
        if (route.band_max && *route.band_max < chart.size())
            chart[*route.band_max].band_max = series[i].points;
    }
    return chart;
}

ChartSpec spec_for(const PageView& view, const std::string& kind, const SavedValueMap& parameters,
                   const SavedValueMap& summary, std::uint64_t device_size)
{
    ChartSpec result = view.spec;
    const PageModel* model = page_model(kind);
    if (!model)
        return result;
    if (model->categories)
        result.categories = model->categories(parameters, summary);
    // The device's extent is the x domain of position graphs only (not of a
    // seek's latency distribution, say).
    if (view.spec.x_unit != Unit::Bytes || view.spec.x_scale != AxisScale::Linear || !model->x_domain)
        return result;
    if (const std::optional<std::pair<double, double>> domain = model->x_domain(parameters, device_size)) {
        result.x_low = domain->first;
        result.x_high = domain->second;
    }
    return result;
}

} // namespace diskbench::client
