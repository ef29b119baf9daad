// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/file_profile_report.hpp"
#include "../model/profile_units.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <vector>

namespace diskbench::client {

// The Profiles grid of a folder as CrystalDiskMark shows it: a row per test
// with its Read and Write MB/s in large type (IOPS and latency p99 below),
// "–" until the test has ended. Rows come from model/file_profile_report.
class FileProfileTable {
public:
    FileProfileTable();
    [[nodiscard]] GtkWidget* widget() const noexcept { return grid_.get(); }
    // `unit`: the large figure's, CrystalDiskMark's unit menu.
    void set(const std::vector<FileProfileRow>& rows, ProfileUnit unit = ProfileUnit::MegabytesPerSecond);
    // The text of the MB/s cells, row by row, Read then Write (for tests).
    [[nodiscard]] std::vector<std::string> cell_texts() const;

private:
    Ref<GtkWidget> grid_;
    std::vector<GtkWidget*> cells_;
    std::vector<GtkWidget*> figure_cells_;
};

} // namespace diskbench::client
