// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/profile_units.hpp"
#include "types/result_types.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <string>
#include <vector>

namespace diskbench::client {

// The profile results as CrystalDiskMark and KDiskMark users know them: one
// row per test (SEQ1M Q8T1 ...) with MB/s in large type, IOPS, and latency
// p50/p99/p99.9; the reference's figures in small type under each. The
// large first column is in the unit chosen (CrystalDiskMark's unit menu).
class ProfileGrid {
public:
    ProfileGrid();
    [[nodiscard]] GtkWidget* widget() const noexcept { return grid_.get(); }
    // `summary`: the current run's, for the spread over passes the daemon published.
    void set(const std::vector<std::string>& tests, const std::vector<SavedSeries>& current,
             const SavedValueMap& summary, const std::vector<SavedSeries>* reference,
             ProfileUnit unit = ProfileUnit::MegabytesPerSecond);

    // The large figures as shown, per test its read and (with the write
    // column) its write: what the app's "profile-grid" state publishes.
    [[nodiscard]] std::vector<std::string> cell_texts() const;

private:
    Ref<GtkWidget> grid_;
    std::vector<GtkWidget*> cells_;
    std::vector<GtkWidget*> figure_cells_;
};

} // namespace diskbench::client
