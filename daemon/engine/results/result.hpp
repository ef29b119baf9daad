// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../parameters/value.hpp"

#include "contract/messages.hpp"
#include "contract/series.hpp"

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace diskbench::engine {

struct SeriesPoint {
    double x = 0;
    double y = 0;
};

// How a client should draw a series; the engine only names it.
enum class SeriesStyle { Line, Bar, Scatter };

// A series named "NAME.partial" carries partial points of series NAME: the
// running value of an aggregate still being filled (a surface map's bucket),
// each replaced by the next point of NAME or NAME.partial at the same x. So
// a slow bucket shows while it fills, and a client can tell a partial point
// from a final one by the series alone (the rule is in the D-Bus XML; daemon
// and clients share its spelling in contract/series.hpp). Partial points go
// to the live sink only, never into the Result: they are superseded by
// definition.
using contract::is_partial_series;
using contract::partial_series_suffix;
[[nodiscard]] inline std::string partial_series_name(std::string_view name)
{
    return std::string(name) + std::string(partial_series_suffix);
}

// Units are short, fixed identifiers ("B", "MB/s", "IOPS", "ns", "s",
// "depth", "threads") so clients can format them.
struct SeriesInfo {
    std::string name;   // stable identifier, e.g. "throughput" or "iops-t4"
    std::string x_unit;
    std::string y_unit;
    SeriesStyle style = SeriesStyle::Line;
};

struct Series {
    SeriesInfo info;
    std::vector<SeriesPoint> points;
};

// Everything one benchmark run produced. The daemon turns this into job
// properties and the client into result files, so it carries what makes two
// results comparable: parameters (with defaults filled in), the target's facts
// and which I/O backend ran.
struct Result {
    std::string kind;
    ValueMap parameters;
    std::vector<Series> series;
    ValueMap summary;
    std::vector<std::string> warnings; // things that may distort the figures
    std::vector<std::string> notes;    // e.g. sizes scaled down to fit the device
    // The same warnings and notes as catalogue messages (id and arguments),
    // one per text, in the same order: add them through add_warning/add_note.
    std::vector<contract::Message> warning_messages;
    std::vector<contract::Message> note_messages;
    std::string backend;               // "io_uring" or "psync"
    std::string target_name;
    std::uint64_t target_size = 0;
    std::uint32_t logical_block = 0;
    std::uint32_t physical_block = 0;
    std::chrono::system_clock::time_point started;
    std::chrono::system_clock::time_point finished;
    bool cancelled = false;
};

std::string_view style_name(SeriesStyle style) noexcept;

// The only ways to give a result a warning or a note: the English text comes
// from the catalogue (contract/messages.cpp), so every text the daemon sends
// has an id a client can translate. Throws std::invalid_argument for an id
// not in the catalogue. A message already there is not added twice.
void add_warning(Result& result, contract::Message message);
void add_note(Result& result, contract::Message message);

} // namespace diskbench::engine
