// SPDX-License-Identifier: GPL-3.0-or-later
#include "result_text.hpp"

#include "parameter_values.hpp"
#include "text_table.hpp"

#include "text/value_format.hpp"
#include "results/job_result.hpp"
#include "text/message_text.hpp"
#include "text/printf_text.hpp"
#include "text/progress_text.hpp"
#include "types/saved_values.hpp"
#include "text/terminal_text.hpp"

#include <glib/gi18n-lib.h>

#include <cmath>
#include <set>

namespace diskbench::cli {

namespace {

using client::printf_text;

using client::as_number;

// Summary figures with the digits that matter: 1234.57, 0.0123, 85.
std::string figure_text(const client::SavedValue& value)
{
    if (const auto* number = std::get_if<double>(&value)) {
        char buffer[G_ASCII_DTOSTR_BUF_SIZE];
        return g_ascii_formatd(buffer, sizeof buffer, std::fabs(*number) >= 1e6 ? "%.0f" : "%.6g", *number);
    }
    return value_text(value);
}

std::string heading(const SavedResult& result)
{
    return client::result_heading(result, client::terminal_text);
}

} // namespace

std::string progress_line(const client::JobEntry& job, std::int64_t now_us)
{
    std::string line = job.kind + "  " + client::job_progress(job, now_us).text;
    // The newest value of the series measured last: MB/s, IOPS or a latency.
    for (std::size_t i = job.points.size(); i-- > 0;) {
        if (job.points[i].empty() || i >= job.series.size())
            continue;
        const auto& series = job.series[i];
        line += "  ·  " + client::format_value(job.points[i].back().y, client::unit_from_name(series.y_unit));
        break;
    }
    return line;
}

std::string change_text(double a, double b)
{
    if (a == 0)
        return {};
    const double change = (b - a) / std::fabs(a) * 100;
    return printf_text("%+.1f %%", change);
}

std::string result_summary_text(const SavedResult& result, bool keys)
{
    std::string text = client::result_report(result, client::terminal_text);
    if (!keys)
        return text;
    // The raw keys, as the daemon and the JSON name them: numbers
    // right-aligned in one table, the facts in words in another, so a long
    // word does not push the numbers away.
    TextTable figures({ _("Key"), _("Value") }, { TextTable::Align::Left, TextTable::Align::Right });
    TextTable facts({ _("Key"), _("Value") });
    using client::terminal_text;
    for (const auto& [key, value] : result.summary) {
        if (as_number(value))
            figures.add_row({ terminal_text(key), figure_text(value) });
        else if (!figure_text(value).empty())
            facts.add_row({ terminal_text(key), terminal_text(figure_text(value)) });
    }
    text += "\n";
    if (!figures.empty())
        text += figures.render();
    if (!facts.empty())
        text += facts.render();
    return text;
}

std::vector<std::pair<const SavedResult*, const SavedResult*>> paired_runs(const SavedResult& a, const SavedResult& b)
{
    const auto runs = [](const SavedResult& result) {
        std::vector<const SavedResult*> list;
        for (const SavedResult& member : result.members)
            list.push_back(&member);
        if (list.empty())
            list.push_back(&result);
        return list;
    };
    std::vector<std::pair<const SavedResult*, const SavedResult*>> pairs;
    for (const SavedResult* run_a : runs(a))
        for (const SavedResult* run_b : runs(b))
            if (run_a->kind == run_b->kind) {
                pairs.emplace_back(run_a, run_b);
                break;
            }
    return pairs;
}

std::string comparison_text(const SavedResult& a, const SavedResult& b)
{
    if (!a.members.empty() || !b.members.empty()) {
        const auto pairs = paired_runs(a, b);
        if (pairs.empty())
            return printf_text(_("Warning: no benchmark in common (%s, %s): nothing compares"),
                               client::terminal_text(a.kind).c_str(), client::terminal_text(b.kind).c_str())
                + "\n";
        std::string text;
        for (const auto& [run_a, run_b] : pairs)
            text += (text.empty() ? "" : "\n") + comparison_text(*run_a, *run_b);
        return text;
    }
    std::string text = "A: " + heading(a) + "B: " + heading(b);
    if (a.kind != b.kind)
        text += printf_text(_("Warning: different benchmarks (%s, %s): only shared figures compare"),
                            client::terminal_text(a.kind).c_str(), client::terminal_text(b.kind).c_str())
            + "\n";
    std::set<std::string> keys;
    for (const auto& [key, value] : a.summary)
        keys.insert(key);
    for (const auto& [key, value] : b.summary)
        keys.insert(key);
    TextTable table({ _("Figure"), "A", "B", _("Change") },
                    { TextTable::Align::Left, TextTable::Align::Right, TextTable::Align::Right, TextTable::Align::Right });
    TextTable facts({ _("Fact"), "A", "B" });
    for (const std::string& key : keys) {
        const auto in_a = a.summary.find(key);
        const auto in_b = b.summary.find(key);
        const bool numbers = (in_a == a.summary.end() || as_number(in_a->second))
            && (in_b == b.summary.end() || as_number(in_b->second));
        const std::string text_a = in_a == a.summary.end() ? "-" : figure_text(in_a->second);
        const std::string text_b = in_b == b.summary.end() ? "-" : figure_text(in_b->second);
        if (!numbers) {
            if (!text_a.empty() || !text_b.empty())
                facts.add_row({ key, text_a, text_b });
            continue;
        }
        std::string change;
        if (in_a != a.summary.end() && in_b != b.summary.end())
            change = change_text(*as_number(in_a->second), *as_number(in_b->second));
        table.add_row({ key, text_a, text_b, change });
    }
    return text + table.render() + (facts.empty() ? "" : facts.render());
}

} // namespace diskbench::cli
