// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "types/daemon_types.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace diskbench::client {

// The settings of one benchmark, built from the daemon's ListBenchmarks():
// each row named in words ("Test area", text/parameter_labels), a
// drop-down per parameter with a list of values (translated words, sizes as
// "1 GiB"), a size field per other byte count (shows and takes "1 GiB",
// "512 MiB", "4k"; anything else gets an inline error), a spin button per
// other number, a switch per flag, an entry per text, each with the daemon's
// description and the parameter's key (what busctl takes) as tooltip, and
// Reset. Only values that
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
    // The form as scripts see it: "key=widget:shown text" per row, joined by
    // "|"; widget is drop-down, size (size-error while its text is not a
    // size), switch, spin or entry. "" before the form was built.
    [[nodiscard]] std::string describe() const;
    // Puts the keyboard in `key`'s field, its text selected; false when the form has no such row.
    bool focus(const std::string& key);

private:
    struct Row {
        ParameterInfo info;
        GtkWidget* editor = nullptr;
        ParameterEditor* owner = nullptr;
        bool big_number = false; // an unsigned too large for a spin button (seeds): typed as text
        bool size_field = false; // a byte count typed as "1 GiB" (text/parameter_labels)
        GtkWidget* error_label = nullptr; // a size field's inline error, hidden when none
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
