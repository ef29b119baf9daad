// SPDX-License-Identifier: GPL-3.0-or-later
// history, show, compare: result files, no daemon needed.
#include "commands.hpp"
#include "json_lists.hpp"
#include "result_text.hpp"
#include "text_table.hpp"

#include "results/device_history.hpp"
#include "text/headline_text.hpp"
#include "results/job_result.hpp"
#include "results/openmetrics.hpp"
#include "results/result_csv.hpp"
#include "text/printf_text.hpp"
#include "results/recent_results.hpp"
#include "results/run_set.hpp"
#include "types/saved_values.hpp"
#include "error_output.hpp"
#include "text/terminal_text.hpp"

#include <glib.h>
#include <glib/gi18n-lib.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace diskbench::cli {

namespace {

using client::printf_text;

// A result file through the contract's reader (the one the app uses).
std::optional<client::SavedResult> load(const std::string& path)
{
    auto loaded = contract::result_from_file(path);
    if (const auto* failure = std::get_if<client::LoadError>(&loaded)) {
        print_error(path + ": " + failure->message);
        return std::nullopt;
    }
    return std::get<client::SavedResult>(std::move(loaded));
}

} // namespace

ExitCode history_command(const CommandLine& line)
{
    client::RecentResults recent;
    recent.reload();
    // A device node or a folder as the results name them: /dev/sdb for
    // /dev/disk/by-id/..., the absolute folder for ~/bench/ or ../bench.
    std::string wanted;
    if (!line.args.empty()) {
        wanted = line.args.front();
        if (char* resolved = ::realpath(wanted.c_str(), nullptr)) {
            wanted = resolved;
            std::free(resolved);
        }
    }
    // The model's history (the app's History page lists the same): a
    // device by the identity its newest result recorded, so the disk's
    // results under an earlier node come along; a folder by its path.
    std::vector<std::pair<std::string, const client::SavedResult*>> shown;
    if (wanted.empty()) {
        for (const client::RecentResult& entry : recent.results())
            shown.emplace_back(entry.path, &entry.result);
    } else {
        for (const client::RecentResult* entry : client::history_of(recent.results(), client::subject_for_path(recent.results(), wanted)))
            shown.emplace_back(entry->path, &entry->result);
    }
    if (line.json) {
        std::fputs(history_json(shown).c_str(), stdout);
        return exit_ok;
    }
    if (shown.empty()) {
        std::fprintf(stderr, "%s\n",
                     printf_text(_("No results kept in %s."), client::terminal_text(recent.directory()).c_str()).c_str());
        return exit_ok;
    }
    TextTable table({ _("Date"), _("Kind"), _("Target"), _("State"), _("Figure"), _("File") });
    for (const auto& [path, result] : shown)
        table.add_row({ client::result_date_text(result->started_at_us), result->kind, result_target_text(*result),
                        result->state, client::kept_result_headline(*result), path });
    std::fputs(table.render().c_str(), stdout);
    return exit_ok;
}

ExitCode show_command(const CommandLine& line)
{
    const auto result = load(line.args[0]);
    if (!result)
        return exit_file;
    std::fputs(line.json ? client::result_to_json(*result).c_str() : result_summary_text(*result, line.keys).c_str(),
               stdout);
    return exit_ok;
}

ExitCode compare_command(const CommandLine& line)
{
    const auto a = load(line.args[0]);
    const auto b = load(line.args[1]);
    if (!a || !b)
        return exit_file;
    std::fputs(line.json ? comparison_json(*a, *b).c_str() : comparison_text(*a, *b).c_str(), stdout);
    return exit_ok;
}

namespace {

// `export --format=csv RESULT [--output PREFIX]`: PREFIX-NAME.csv for
// each series (PREFIX: the result file's path without ".json"; NAME its
// name made a file's, numbered where two are the same: result_csv.hpp),
// each written whole or not at all; their names on standard output, each
// once.
ExitCode export_csv(const CommandLine& line)
{
    const auto result = load(line.args[0]);
    if (!result)
        return exit_file;
    std::string prefix = line.output.value_or(line.args[0]);
    if (!line.output && prefix.ends_with(".json"))
        prefix.resize(prefix.size() - 5);
    const std::vector<client::CsvFile> files = client::result_csv(*result);
    if (files.empty()) {
        print_error(line.args[0] + ": " + _("the result has no series"));
        return exit_file;
    }
    for (const client::CsvFile& file : files) {
        const std::string path = client::csv_file_name(prefix, file);
        if (const std::string error = client::write_file_atomically(path, file.text); !error.empty()) {
            print_error(client::terminal_text(path) + ": " + error);
            return exit_file;
        }
        std::printf("%s\n", client::terminal_text(path).c_str());
    }
    return std::fflush(stdout) == 0 ? exit_ok : exit_file;
}

} // namespace

ExitCode export_command(const CommandLine& line)
{
    if (line.format.value_or("") == "csv")
        return export_csv(line);
    // Every file is read before anything is written: a file that cannot be
    // read fails the export and leaves FILE as it was (a textfile collector
    // keeps serving the last good metrics).
    std::vector<client::SavedResult> results;
    for (const auto& path : line.args) {
        auto result = load(path);
        if (!result)
            return exit_file;
        results.push_back(std::move(*result));
    }
    const std::string text = client::openmetrics_text(results);
    if (!line.output) {
        std::fputs(text.c_str(), stdout);
        return std::fflush(stdout) == 0 ? exit_ok : exit_file;
    }
    if (const std::string error = client::write_file_atomically(*line.output, text); !error.empty()) {
        print_error(*line.output + ": " + error);
        return exit_file;
    }
    return exit_ok;
}

} // namespace diskbench::cli
