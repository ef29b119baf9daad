// SPDX-License-Identifier: GPL-3.0-or-later
#include "results/result_csv.hpp"

#include "contract/series.hpp"

#include <glib.h>

#include <cctype>

namespace diskbench::client {

namespace {

// The x column's name: what the x axis measures in this kind, with the
// unit. Bytes are a seek's distance, a sweep's block size, else a place
// on the device or in the file.
std::string x_column(std::string_view kind, std::string_view unit)
{
    if (unit == "B" && kind == "seek")
        return "distance (B)";
    if (unit == "B" && (kind == "random" || kind == "block" || kind == "write-sweep" || kind == "device-write-sweep"))
        return "block size (B)";
    if (unit == "B")
        return "position (B)";
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

std::string csv_file_name(std::string_view prefix, std::string_view series)
{
    std::string name;
    for (const char c : series) {
        const auto byte = static_cast<unsigned char>(c);
        name += std::isalnum(byte) || c == '-' || c == '_' || (c == '.' && !name.empty() && name.back() != '.')
            ? c
            : '_';
    }
    return std::string(prefix) + "-" + (name.empty() ? std::string("series") : name) + ".csv";
}

std::vector<CsvFile> result_csv(const SavedResult& result)
{
    std::vector<CsvFile> files;
    // A set: each run's files, named after the run's kind ("seek-cdf").
    for (const SavedResult& member : result.members)
        for (CsvFile& file : result_csv(member)) {
            file.series = member.kind + "-" + file.series;
            files.push_back(std::move(file));
        }
    for (const SavedSeries& series : result.series) {
        if (contract::is_partial_series(series.name))
            continue;
        CsvFile file { series.name, {} };
        file.text = csv_field(x_column(result.kind, series.x_unit)) + ","
            + csv_field(series.name + (series.y_unit.empty() ? "" : " (" + series.y_unit + ")")) + "\r\n";
        for (const SeriesPoint& point : series.points)
            file.text += number(point.x) + "," + number(point.y) + "\r\n";
        files.push_back(std::move(file));
    }
    return files;
}

} // namespace diskbench::client
