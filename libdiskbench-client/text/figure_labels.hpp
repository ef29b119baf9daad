// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "text/value_format.hpp"

#include <string>
#include <string_view>

// A summary key as a person reads it: "latency_p99_9_us" is "p99.9
// latency" in µs, "seq1m_q8t1.throughput_mb_s" "SEQ1M Q8T1 throughput" in
// MB/s, "backing_read_bytes" a check's figure the result's checks already
// say. Both clients name a result's figures with it (result_report.hpp);
// the raw keys stay in the JSON.
namespace diskbench::client {

struct FigureLabel {
    std::string label; // translated where the key is known, else the key in words
    Unit unit = Unit::Plain;
    double scale = 1;    // what the value is multiplied by for `unit` (ms -> µs: 1000)
    bool percent = false; // a share in percent ("12.5 %")
    bool shown = true;    // false: a check's or the device line's figure, or bookkeeping
    int order = 1000;     // where it goes in a list: the common figures first, in a fixed order
};

FigureLabel figure_label(std::string_view key);

// The value of `key` in words with its unit: "420 ms", "15.8 GiB", "12.5 %"
// (sizes always with one decimal: a capacity of 15.8 GiB is not "16 GiB").
std::string figure_value_text(const FigureLabel& label, double value);

} // namespace diskbench::client
