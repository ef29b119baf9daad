// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/result_report.hpp"

#include "kinds/presentation_registry.hpp"
#include "results/job_result.hpp"
#include "results/drive_health.hpp"
#include "results/result_checks.hpp"
#include "text/figure_labels.hpp"
#include "text/headline_text.hpp"
#include "text/message_text.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

namespace {

// "Figure   Value" rows, the values right-aligned under each other.
std::string figure_rows(const std::vector<std::pair<std::string, std::string>>& rows)
{
    const auto width = [](const std::string& text) {
        // Characters, not bytes: "µs" and "°C" are one column each.
        return static_cast<std::size_t>(g_utf8_strlen(text.c_str(), -1));
    };
    std::size_t label_width = 0, value_width = 0;
    for (const auto& [label, value] : rows) {
        label_width = std::max(label_width, width(label));
        value_width = std::max(value_width, width(value));
    }
    std::string text;
    for (const auto& [label, value] : rows)
        text += "  " + label + std::string(label_width - width(label) + 2 + value_width - width(value), ' ') + value
            + "\n";
    return text;
}

std::string headline(const SavedResult& result, const KindPresentation* presentation)
{
    if (presentation && presentation->report_headline)
        if (std::optional<std::string> line = presentation->report_headline(result))
            return *line;
    const std::string text = headline_text(result.kind, result.summary, 3);
    return text == "–" ? std::string() : text;
}

// "Device: loop0 – WDC WD40EFRX (ATA), 3.6 TiB · ext4 → sda, SATA 6 Gb/s"
std::string device_line(const SavedResult& result, const OutsideText& outside)
{
    const SavedValueMap& info = result.device_info;
    if (result.target_kind == "directory" || info.empty())
        return {};
    std::string line = outside(text_of(info, "node").empty() ? result.target : text_of(info, "node"));
    const std::string model = text_of(info, "model");
    if (!model.empty())
        line += " – " + outside(model);
    if (const double size = number_of(info, "size", 0); size > 0)
        line += ", " + format_value(size, Unit::Bytes);
    const std::string stack = text_of(info, "stack_line");
    if (!stack.empty())
        line += " · " + outside(stack);
    /* TRANSLATORS: the last line of a result as text: the device it ran on */
    return printf_text(_("Device: %s"), line.c_str()) + "\n";
}

} // namespace

std::string result_target_text(const SavedResult& result)
{
    if (result.target_kind == "directory")
        return printf_text(_("folder %s"), result.target.c_str());
    const std::string node = text_of(result.device_info, "node");
    return node.empty() ? result.target : node;
}

std::string result_heading(const SavedResult& result, const OutsideText& outside)
{
    std::string text = printf_text(_("%s on %s: %s"), outside(result.kind).c_str(),
                                   outside(result_target_text(result)).c_str(), outside(result.state).c_str());
    if (result.started_at_us > 0)
        text += "  (" + result_date_text(result.started_at_us);
    if (result.finished_at_us > result.started_at_us && result.started_at_us > 0)
        text += ", " + printf_text(_("%.1f s"), static_cast<double>(result.finished_at_us - result.started_at_us) / 1e6);
    if (result.started_at_us > 0)
        text += ")";
    if (!result.backend.empty())
        text += "  " + printf_text(_("backend %s"), outside(result.backend).c_str());
    return text + "\n";
}

std::string result_report_footer(const SavedResult& result, const OutsideText& outside)
{
    const ResultChecks checks = result_checks(result.summary, result.warnings);
    std::string lines;
    for (const CheckLine& line : checks.lines)
        lines += std::string(line.passed ? "✓ " : "⚠ ") + outside(line.text) + "\n";
    // In the user's language where the daemon sent catalogue messages (0.5).
    for (const std::string& warning :
         localized_lines(warnings_outside(checks, result.warnings), result.warnings, result.warning_messages))
        lines += "⚠ " + outside(warning) + "\n";
    for (const std::string& note : localized_lines(result.notes, result.notes, result.note_messages))
        lines += printf_text(_("Note: %s"), outside(note).c_str()) + "\n";
    if (const std::string device = device_line(result, outside); !device.empty())
        lines += (lines.empty() ? "" : "\n") + device;
    // The drive's health when the run started (Job.DeviceInfo smart_* or
    // nvme_*, API 0.9 / 0.15), as the Info page says it.
    if (const HealthVerdict health = drive_health(health_at_start(result.device_info), nullptr); health.known)
        lines += printf_text(_("Health at the start: %s"), outside(health.summary).c_str()) + "\n"
            + (health.warn ? "⚠ " + outside(health.warning) + "\n" : std::string());
    return lines;
}

std::string result_report(const SavedResult& result, const OutsideText& outside)
{
    // A kind with a layout of its own: the Profiles as CrystalDiskMark's
    // users know their text, a set's runs one after another.
    const KindPresentation* presentation = kind_presentation(result.kind);
    if (presentation && presentation->report)
        return presentation->report(result, outside);
    std::string text = result_heading(result, outside);
    // The headline's labels may come from the file's summary keys.
    if (const std::string line = headline(result, presentation); !line.empty())
        text += outside(line) + "\n";

    // The common figures first in a fixed order (throughput, IOPS, the
    // latencies from mean to slowest), then the rest by key.
    std::vector<std::pair<FigureLabel, const SavedValue*>> labelled;
    for (const auto& [key, value] : result.summary)
        if (FigureLabel label = figure_label(key); label.shown)
            labelled.emplace_back(std::move(label), &value);
    std::stable_sort(labelled.begin(), labelled.end(),
                     [](const auto& a, const auto& b) { return a.first.order < b.first.order; });
    std::vector<std::pair<std::string, std::string>> figures, facts;
    for (const auto& [label, value] : labelled) {
        if (const auto number = as_number(*value))
            figures.emplace_back(outside(label.label), figure_value_text(label, *number));
        else if (const auto* word = std::get_if<std::string>(value); word && !word->empty())
            facts.emplace_back(outside(label.label), outside(*word));
        else if (const auto* flag = std::get_if<bool>(value))
            facts.emplace_back(outside(label.label), *flag ? _("yes") : _("no"));
    }
    if (!figures.empty())
        text += "\n" + figure_rows(figures);
    if (!facts.empty())
        text += figure_rows(facts);

    // What the kind found: every bad range and slow spot of a scan.
    const std::string found
        = presentation && presentation->report_findings ? presentation->report_findings(result, outside) : "";
    if (!found.empty())
        text += "\n" + found;
    if (const std::string footer = result_report_footer(result, outside); !footer.empty())
        text += (found.empty() ? "\n" : "") + footer;
    return text;
}

} // namespace diskbench::client
