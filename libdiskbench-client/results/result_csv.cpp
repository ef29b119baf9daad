// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/result_csv.hpp"

#include "contract/series.hpp"
#include "kinds/presentation_registry.hpp"
#include "text/terminal_text.hpp"

#include <glib.h>

#include <cctype>
#include <set>

namespace diskbench::client {

namespace {

// The x column's name: what the x axis measures in this kind, with the
// unit. Bytes are what the kind says (a seek's distance, a sweep's block
// size), else a place on the device or in the file.
std::string x_column(std::string_view kind, std::string_view unit)
{
    if (unit == "B") {
        const KindPresentation* presentation = kind_presentation(kind);
        return presentation && presentation->byte_axis_column ? presentation->byte_axis_column : "position (B)";
    }
    if (unit == "s")
        return "time (s)";
    if (unit == "depth")
        return "queue depth";
    if (unit == "us")
        return "latency (us)"; // a latency distribution's (cdf) x
    if (unit == "test")
        return "test";
    return unit.empty() ? std::string("x") : "x (" + std::string(unit) + ")";
}

std::string number(double value)
{
    char buffer[G_ASCII_DTOSTR_BUF_SIZE];
    return g_ascii_dtostr(buffer, sizeof buffer, value);
}

// A series' name kept to what a file name may safely hold.
std::string file_name_part(std::string_view series)
{
    std::string name;
    for (const char c : series) {
        const auto byte = static_cast<unsigned char>(c);
        name += std::isalnum(byte) || c == '-' || c == '_' || (c == '.' && !name.empty() && name.back() != '.')
            ? c
            : '_';
    }
    return name.empty() ? std::string("series") : name;
}

// Every file and the result's own series, in order, without names yet.
void add_files(const SavedResult& result, std::vector<CsvFile>& files)
{
    // A set: each run's files, named after the run's kind ("seek-cdf").
    for (const SavedResult& member : result.members) {
        const std::size_t first = files.size();
        add_files(member, files);
        for (std::size_t i = first; i < files.size(); ++i)
            files[i].series = member.kind + "-" + files[i].series;
    }
    for (const SavedSeries& series : result.series) {
        if (contract::is_partial_series(series.name))
            continue;
        CsvFile file { series.name, {}, {} };
        file.text = csv_text_field(x_column(result.kind, series.x_unit)) + ","
            + csv_text_field(series.name + (series.y_unit.empty() ? "" : " (" + series.y_unit + ")")) + "\r\n";
        for (const SeriesPoint& point : series.points)
            file.text += number(point.x) + "," + number(point.y) + "\r\n";
        files.push_back(std::move(file));
    }
}

// The name as a case-insensitive filesystem compares it.
std::string folded(std::string_view name)
{
    gchar* lower = g_ascii_strdown(name.data(), static_cast<gssize>(name.size()));
    std::string text(lower);
    g_free(lower);
    return text;
}

} // namespace

std::string csv_field(std::string_view text)
{
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (const char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string csv_text_field(std::string_view text)
{
    std::string cell = terminal_text(text);
    // After terminal_text() a tab or CR is "\x09" or "\x0d" already; the
    // rule is OWASP's whole all the same, for the text it is given.
    if (!cell.empty() && std::string_view("=+-@\t\r").find(cell.front()) != std::string_view::npos)
        cell.insert(0, "'");
    return csv_field(cell);
}

std::string csv_file_name(std::string_view prefix, const CsvFile& file)
{
    return std::string(prefix) + "-" + file.name + ".csv";
}

std::vector<CsvFile> result_csv(const SavedResult& result)
{
    std::vector<CsvFile> files;
    add_files(result, files);
    // The first of a name keeps it, each later one the first number still
    // free: the same result always gives the same names.
    std::set<std::string> taken;
    for (CsvFile& file : files) {
        const std::string base = file_name_part(file.series);
        file.name = base;
        for (int number = 2; !taken.insert(folded(file.name)).second; ++number)
            file.name = base + "-" + std::to_string(number);
    }
    return files;
}

} // namespace diskbench::client
