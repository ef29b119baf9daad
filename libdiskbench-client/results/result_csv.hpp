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
// --format=csv` and the app's Export data write.
//
// A result file may come from anyone, and its series' names and units are
// the header row's text: those text cells are written with csv_text_field()
// (no control character, no formula). The number cells are ours
// (g_ascii_dtostr of a double), so a negative value stays the number
// "-2.5" and is never mistaken for a formula to neutralise.
namespace diskbench::client {

struct CsvFile {
    std::string series; // the series' name, as the result has it
    std::string name;   // its part of the file's name, unique in the result (csv_file_name)
    std::string text;   // RFC 4180: CRLF line ends, fields quoted where needed
};

// Every series of RESULT but the partial ones (a live map's running values).
// Each file's name is the series' name kept to letters, digits, '-', '_'
// and '.' (a result file may name a series anything, "../x" included);
// where two series come to the same name (the same letters in another
// case too: a FAT or exFAT stick does not tell them apart), the later one
// is numbered "-2", "-3"... in the result's order, so no file is written
// over another.
std::vector<CsvFile> result_csv(const SavedResult& result);

// One field, quoted when it holds a comma, a quote or a line break.
std::string csv_field(std::string_view text);

// One text cell from a result file: its control characters written as
// "\xNN" and a backslash as "\\" (text/terminal_text.hpp: a line break,
// ESC or CSI of a crafted series name is neither a new row nor a
// terminal's escape sequence when the file is shown with cat), then, as
// OWASP advises against CSV injection, a "'" before a cell that starts
// with '=', '+', '-', '@', a tab or a carriage return, which a spreadsheet
// would take for a formula; quoted as csv_field() quotes.
std::string csv_text_field(std::string_view text);

// "PREFIX-NAME.csv" of one of result_csv()'s files.
std::string csv_file_name(std::string_view prefix, const CsvFile& file);

} // namespace diskbench::client
