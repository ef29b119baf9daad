// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/fault_cells.hpp"
#include "gobject_ptr.hpp"
#include "types/result_types.hpp"

#include <gtk/gtk.h>

#include <optional>
#include <string>

namespace diskbench::client {

// The Surface page's card of what the scan found wrong: the error-scan grid
// (model/fault_cells.hpp, one cell per bucket: green read, yellow slow, red
// unreadable, grey not read yet) with its legend, the summary line, and the
// list of bad ranges and slow spots in an expander, with Copy.
class FaultMap {
public:
    FaultMap();
    FaultMap(const FaultMap&) = delete;
    FaultMap& operator=(const FaultMap&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return root_.get(); }
    // Shows RESULT (a live job as it stands, or an opened result); none: hidden.
    void show(const std::optional<SavedResult>& result, std::uint64_t device_size);
    // "bad=N slow=N good=N cells=N|the summary line", for scripts and tests.
    [[nodiscard]] std::string describe() const;
    // The summary line and the list, as copied (empty when nothing is shown).
    [[nodiscard]] std::string text() const { return text_; }

private:
    static void draw(GtkDrawingArea* area, cairo_t* cr, int width, int height, gpointer self);
    static void on_resize(GtkDrawingArea* area, int width, int height, gpointer self);

    Ref<GtkWidget> root_;
    GtkWidget* grid_area_ = nullptr;
    GtkWidget* legend_ = nullptr;
    GtkWidget* line_ = nullptr;
    GtkWidget* details_ = nullptr;
    GtkWidget* list_ = nullptr;
    FaultCells cells_;
    std::string line_text_, text_;
};

} // namespace diskbench::client
