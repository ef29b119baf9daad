// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/daemon_types.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace diskbench::client {

// The settings of one benchmark, built from the daemon's ListBenchmarks():
// a drop-down per parameter with a list of values (sizes as "1 GiB"), a
// spin button per other number, a switch per flag, an entry per text, each
// with the daemon's description as tooltip, and Reset. Only values that
// differ from the defaults are kept, so a run asks for exactly what the user
// changed and the daemon's scaling of defaults to small devices still works.
class ParameterEditor {
public:
    explicit ParameterEditor(std::function<void()> on_changed);
    ~ParameterEditor();
    ParameterEditor(const ParameterEditor&) = delete;
    ParameterEditor& operator=(const ParameterEditor&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return root_.get(); }
    // Rebuilds the rows for `parameters` (keeps changed values whose key still exists).
    void set_parameters(const std::vector<ParameterInfo>& parameters);
    [[nodiscard]] const SavedValueMap& changed() const noexcept { return changed_; }
    void set_value(const std::string& key, const SavedValue& value); // for scripts/tests
    void reset();

private:
    struct Row {
        ParameterInfo info;
        GtkWidget* editor = nullptr;
        ParameterEditor* owner = nullptr;
        bool big_number = false; // an unsigned too large for a spin button (seeds): typed as text
        std::vector<SavedValue> offered = {}; // a drop-down's values, by position
    };
    void rebuild();
    void read(Row& row);
    static void on_spin_changed(GtkSpinButton*, gpointer row);
    static void on_switch_changed(GObject*, GParamSpec*, gpointer row);
    static void on_entry_changed(GtkEditable*, gpointer row);
    static void on_choice_changed(GObject*, GParamSpec*, gpointer row);

    std::function<void()> on_changed_;
    Ref<GtkWidget> root_;
    GtkWidget* grid_ = nullptr;
    std::vector<std::unique_ptr<Row>> rows_;
    SavedValueMap changed_;
    bool filling_ = false;
};

} // namespace diskbench::client
