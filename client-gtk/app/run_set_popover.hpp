// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "gobject_ptr.hpp"
#include "results/run_set.hpp"

#include <gtk/gtk.h>

#include <functional>
#include <string>
#include <vector>

namespace diskbench::client {

// The "Run a Set" button under the list of pages and its popover: Quick,
// Full read or a custom set (its boxes ticked and remembered,
// run_set_custom_kinds()), the rest between benchmarks, Run; while a set
// runs, what it does and Stop.
class RunSetPopover {
public:
    struct Actions {
        // NAME as diskbenchctl run-set takes it ("quick", "custom", ...).
        // CUSTOM: the ticked kinds (kept for next time too).
        std::function<void(const std::string& name, unsigned pause_s, const std::vector<std::string>& custom)> run;
        std::function<void()> stop;
        std::function<std::vector<BenchmarkInfo>()> offered; // the daemon's kinds
        std::function<std::string()> device_name;           // "" when no device is selected
    };

    explicit RunSetPopover(Actions actions);
    RunSetPopover(const RunSetPopover&) = delete;
    RunSetPopover& operator=(const RunSetPopover&) = delete;

    [[nodiscard]] GtkWidget* button() const noexcept { return button_.get(); }
    // A set started, advanced or ended: PROGRESS ("" when none runs).
    void set_progress(const std::string& progress);

private:
    void fill();
    void update_sensitivity();
    [[nodiscard]] std::string chosen_name() const;
    [[nodiscard]] std::vector<std::string> ticked_kinds() const;
    static void on_shown(GtkPopover*, gpointer self);
    static void on_run(GtkButton*, gpointer self);

    Actions actions_;
    Ref<GtkWidget> button_; // the window puts it under the list of pages
    GtkWidget* popover_ = nullptr;
    GtkWidget* target_label_ = nullptr;
    GtkWidget* custom_box_ = nullptr;
    GtkWidget* pause_ = nullptr;
    GtkWidget* run_ = nullptr;
    GtkWidget* stop_ = nullptr;
    GtkWidget* progress_ = nullptr;
    std::vector<std::pair<std::string, GtkWidget*>> presets_; // name, radio
    std::vector<std::pair<std::string, GtkWidget*>> kinds_;   // kind, check box
    bool running_ = false;
};

} // namespace diskbench::client
