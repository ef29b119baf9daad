// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../benchmark_description.hpp"
#include "../benchmark_pages.hpp"
#include "../page_groups.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace diskbench::client {

// A widget a page has beside its chart, built by the page view.
enum class PageExtra {
    None,
    ProfileGrid,      // the CrystalDiskMark grid of the device's Profiles
    FileProfileTable, // the read/write/mix table of a folder's Profiles
    FaultMap,         // the Surface scan's map of unreadable and slow stretches
};

// What the app knows of one benchmark kind, in one place: its page's icon
// and views, the info popover's text and fio lines, where it sorts in the
// page list, and the few facts only it has. One per kind, each in
// model/pages/<kind>.cpp, listed in page_registry.cpp; the title and
// summary are the client library's (kinds/<kind>.cpp), shared with
// diskbenchctl. A kind without one (a newer daemon's) gets the generic
// page, drawn from the series its jobs declare.
struct PageModel {
    std::string_view kind;
    const char* icon; // symbolic icon name
    // How it is started until the daemon's ListBenchmarks says.
    PageTarget target = PageTarget::Device;
    // The page's views; null or empty: the generic view.
    std::vector<PageView> (*views)() = nullptr;
    // The info popover: what a run does in words and the fio (or dd)
    // commands that measure the same; null: nothing to say.
    BenchmarkDescription (*describe)(const SavedValueMap& parameters, const std::string& node,
                                     std::uint32_t logical_block_size) = nullptr;
    // Set: its group in the page list whatever its target (the whole-surface
    // scan and the capacity check are about the drive, not a rate).
    std::optional<PageGroup> group = std::nullopt;
    // The x domain of its position graphs (linear byte axes), from the
    // run's parameters and the device's size; nullopt: from the data.
    std::optional<std::pair<double, double>> (*x_domain)(const SavedValueMap& parameters,
                                                         std::uint64_t device_size) = nullptr;
    // The categories of its bar charts (the tests it ran, or was asked
    // for); a reference run's when the shown run has none.
    std::vector<std::string> (*categories)(const SavedValueMap& parameters, const SavedValueMap& summary) = nullptr;
    // The parameter that says how many points its first series will have,
    // so the chart makes room for them once; empty: not known up front.
    std::string_view expected_points = {};
    PageExtra extra = PageExtra::None;
    // Its figures are said as a device run's (device_summary_text), though
    // it runs in a folder: the folder's queue-depth sweep names its best cell.
    bool device_summary = false;
    // With its writes_when setting on (contract::kinds::writes_when), a run
    // writes in the mode the write consent card asks for, erasing only
    // with the device's word typed: the Profiles' write column. (The
    // overview's and the queue-depth sweep's writes keep the data and need
    // only the administrator's consent.)
    bool consent_when_writing = false;
    // Under its figures, the disk's last steady-state test beside its fresh
    // figure (steady_beside_fresh.hpp): the device Profiles, whose random
    // writes are a fresh drive's.
    bool steady_state_beside = false;
};

} // namespace diskbench::client
