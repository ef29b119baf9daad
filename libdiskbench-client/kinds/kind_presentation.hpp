// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results/result_report.hpp"
#include "text/kind_titles.hpp"
#include "text/value_format.hpp"
#include "types/result_types.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// How both clients present one benchmark kind: what it is called, which of
// its figures lead, the words of its one-line summary and of its report,
// and what its CSV and OpenMetrics columns mean. One definition per kind,
// in kinds/<kind>.cpp, listed in kinds/presentation_registry.cpp; what
// every kind shares stays in text/ and results/, which ask the kind's
// presentation for the rest instead of comparing kind names.
//
// Plain data and function pointers, constant-initialised: a kind's file
// defines `constinit const KindPresentation <kind>_presentation`, so the
// registry's table needs no start-up order.
namespace diskbench::client {

// A figure a headline may show: its key, its label (N_() marked) and unit.
struct HeadlineCandidate {
    std::string_view key;
    const char* label;
    Unit unit;
};

struct KindPresentation {
    // The kind's name, its page title and the line under it.
    KindTitle title;
    // The headline figures a History line and a trend show, best first.
    // Null: the common ones (throughput, read, write, mean latency).
    std::span<const HeadlineCandidate> (*headline_candidates)(const SavedValueMap& summary) = nullptr;
    // The one-line summary under a finished run: the parts this kind adds
    // after the throughput (Seek's access time, a sweep's best cell).
    void (*summary_parts)(const SavedValueMap& summary, std::vector<std::string>& parts) = nullptr;
    // The whole one-line summary, for a kind that says it its own way (the
    // overview's three averages, as GNOME Disks gives them).
    std::string (*summary_line)(const SavedValueMap& summary) = nullptr;
    // The report's first line, for a kind that leads with what it found (a
    // scan's faults, a capacity verdict); nullopt: the common headline.
    std::optional<std::string> (*report_headline)(const SavedResult& result) = nullptr;
    // Lines after the report's figures: what a scan found, a line each.
    std::string (*report_findings)(const SavedResult& result, const OutsideText& outside) = nullptr;
    // The whole report, for a kind with a layout of its own (the Profiles
    // as CrystalDiskMark's text, a set's runs one after another).
    std::string (*report)(const SavedResult& result, const OutsideText& outside) = nullptr;
    // CSV: the name of an x column in bytes ("distance (B)" for Seek);
    // null: a place on the device or in the file ("position (B)").
    const char* byte_axis_column = nullptr;
    // OpenMetrics: the `op` label of the kind's plain figures ("write",
    // "mixed"); null: "write" for a kind that writes the device, else "read".
    const char* metrics_op = nullptr;
};

} // namespace diskbench::client
