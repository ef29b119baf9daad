// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/profile_units.hpp"
#include "../model/benchmark_pages.hpp"
#include "types/daemon_types.hpp"
#include "../model/temperature_overlay.hpp"
#include "graph_area.hpp"
#include "file_profile_table.hpp"
#include "profile_grid.hpp"

#include <gtk/gtk.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace diskbench::client {

// The graph of a benchmark page and what feeds it: which of a run's series
// go to which chart series (the page's chosen view, or what the run
// declares on a generic page), the reference drawn underneath, the running
// bar, and for profiles the CrystalDiskMark-style table. Live points are
// appended as they arrive, not redrawn from scratch.
class PageChart {
public:
    explicit PageChart(const BenchmarkPage& page);
    PageChart(const PageChart&) = delete;
    PageChart& operator=(const PageChart&) = delete;

    [[nodiscard]] GtkWidget* graph_widget() const noexcept { return graph_.widget(); }
    // The profile table, or null on pages without one.
    [[nodiscard]] GtkWidget* table_widget() const noexcept
    {
        return table_ ? table_->widget() : file_table_ ? file_table_->widget() : nullptr;
    }
    // The folder Profiles grid (file-profile), or null on other pages.
    [[nodiscard]] const FileProfileTable* file_table() const noexcept { return file_table_.get(); }
    [[nodiscard]] const ProfileGrid* profile_grid() const noexcept { return table_.get(); }
    [[nodiscard]] const Chart& chart() const noexcept { return graph_.chart(); }
    // The profile grids' large figure (CrystalDiskMark's unit menu); takes
    // effect at the next rebuild().
    void set_profile_unit(ProfileUnit unit) noexcept { profile_unit_ = unit; }

    // Generic pages draw what the shown run declares; others their chosen view.
    [[nodiscard]] const PageView& view() const { return page_.generic() ? generic_view_ : page_.views.at(view_index_); }
    void select_view(std::size_t index) noexcept { view_index_ = index; }
    [[nodiscard]] std::size_t view_index() const noexcept { return view_index_; }

    // The results drawn under the current one, each in its own colour
    // (up to max_references): set_reference() makes `reference` the only
    // one (none: no comparison); add_reference() adds one beside the others,
    // the oldest added making room when there are already four, and the
    // same result twice is drawn once.
    static constexpr std::size_t max_references = 4;
    void set_reference(std::optional<SavedResult> reference, std::string label);
    void add_reference(SavedResult reference, std::string label);
    [[nodiscard]] bool has_reference() const noexcept { return !references_.empty(); }
    [[nodiscard]] std::size_t reference_count() const noexcept { return references_.size(); }
    void set_placeholder(const std::string& text);

    // Draws `live` (a job of this page's kind, null when none is shown) or
    // else `opened` (a result from a file) from scratch. `device`: the
    // selected one, for the x domain of position graphs.
    void rebuild(const JobEntry* live, const std::optional<SavedResult>& opened, const DeviceEntry* device);
    // Whether `job` declared series the chart has not routed yet.
    [[nodiscard]] bool series_changed(const JobEntry& job) const noexcept { return job.series.size() != appended_.size(); }
    // Whether `job`'s new points can be appended, or the chart must be
    // rebuilt (new routes, or the profile table).
    [[nodiscard]] bool can_append(const JobEntry& job) const noexcept
    {
        return !series_changed(job) && !table_ && !file_table_;
    }
    // Appends what arrived since the last rebuild or append.
    void append(const JobEntry& job);
    // The bar being measured of a running bar chart, filling with the run's
    // progress (every bar gets an equal share of the run); none otherwise.
    void show_running_bar(const JobEntry* job, const DeviceEntry* device, double fraction, bool running);
    void redraw_soon() { graph_.changed(); }
    void describe(const std::string& name, const std::string& description) { graph_.describe(name, description); }
    [[nodiscard]] const std::string& description() const noexcept { return graph_.description(); }

private:
    const BenchmarkPage& page_;
    GraphArea graph_;
    std::unique_ptr<ProfileGrid> table_;
    std::unique_ptr<FileProfileTable> file_table_;
    PageView generic_view_ = generic_view({});
    std::size_t view_index_ = 0;
    ProfileUnit profile_unit_ = ProfileUnit::MegabytesPerSecond;
    struct Reference {
        SavedResult result;
        std::string label;
    };
    std::vector<Reference> references_; // in the order added
    std::vector<std::size_t> appended_; // per job series: points already in the chart
    std::size_t temperature_readings_ = 0; // in the overlay, to redo it only when one arrives

    // The drive's temperature over the graph (right-hand axis), or none.
    void show_temperature(std::span<const OverlaySource> series);

    // Per job series: the last point given to the chart. SampleStream may
    // replace a job's last point (a partial point of a bucket by a later
    // one); append() then replaces it in the chart too.
    std::vector<SeriesPoint> last_appended_;
};

} // namespace diskbench::client
