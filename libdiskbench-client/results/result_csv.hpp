// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/result_types.hpp"

#include <string>
#include <string_view>
#include <vector>

// A result's series as CSV, for a spreadsheet: one file per series, a
// header row with the units in the column names ("position (B)", "read
// (MB/s)"), then one row per point, numbers as C writes them (a point,
// full precision), whatever the user's locale. What `diskbenchctl export
// --format=csv` writes.
namespace diskbench::client {

struct CsvFile {
    std::string series; // the series' name, as the result has it
    std::string text;   // RFC 4180: CRLF line ends, fields quoted where needed
};

// Every series of RESULT but the partial ones (a live map's running values).
std::vector<CsvFile> result_csv(const SavedResult& result);

// One field, quoted when it holds a comma, a quote or a line break.
std::string csv_field(std::string_view text);

// "PREFIX-SERIES.csv", the series' name kept to letters, digits, '-', '_'
// and '.' (a result file may name a series anything, "../x" included).
std::string csv_file_name(std::string_view prefix, std::string_view series);

} // namespace diskbench::client
