// SPDX-License-Identifier: GPL-3.0-or-later
#include "parameter_editor.hpp"

#include "icon_button.hpp"
#include "../model/parameter_choices.hpp"
#include "text/parameter_labels.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>
#include <cmath>

namespace diskbench::client {

ParameterEditor::ParameterEditor(std::function<void()> on_changed)
    : on_changed_(std::move(on_changed))
    , root_(Ref<GtkWidget>::take_floating(gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)))
{
    GtkWidget* heading = gtk_label_new(_("Settings"));
    gtk_widget_add_css_class(heading, "heading");
    gtk_box_append(GTK_BOX(root_.get()), heading);
    grid_ = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid_), 6);
    gtk_grid_set_column_spacing(GTK_GRID(grid_), 12);
    GtkWidget* scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_max_content_height(GTK_SCROLLED_WINDOW(scroll), 420);
    gtk_scrolled_window_set_propagate_natural_height(GTK_SCROLLED_WINDOW(scroll), TRUE);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), grid_);
    gtk_box_append(GTK_BOX(root_.get()), scroll);
    GtkWidget* reset = gtk_button_new_with_label(_("Reset to Defaults"));
    g_signal_connect_swapped(reset, "clicked", G_CALLBACK(+[](ParameterEditor* self) { self->reset(); }), this);
    gtk_box_append(GTK_BOX(root_.get()), reset);
}

ParameterEditor::~ParameterEditor()
{
    for (auto& row : rows_)
        if (row->editor)
            g_signal_handlers_disconnect_by_data(row->editor, row.get());
    g_signal_handlers_disconnect_by_data(root_.get(), this);
}

void ParameterEditor::set_parameters(const std::vector<ParameterInfo>& parameters)
{
    for (auto& row : rows_)
        if (row->editor)
            g_signal_handlers_disconnect_by_data(row->editor, row.get());
    rows_.clear();
    SavedValueMap kept;
    for (const ParameterInfo& info : parameters) {
        rows_.push_back(std::make_unique<Row>(Row { info, nullptr, this }));
        if (const auto found = changed_.find(info.key); found != changed_.end())
            kept.insert(*found);
    }
    changed_ = std::move(kept);
    rebuild();
}

void ParameterEditor::rebuild()
{
    while (GtkWidget* child = gtk_widget_get_first_child(grid_))
        gtk_grid_remove(GTK_GRID(grid_), child);
    filling_ = true;
    int line = 0;
    for (auto& row : rows_) {
        const ParameterInfo& info = row->info;
        const auto changed = changed_.find(info.key);
        const SavedValue& value = changed != changed_.end() ? changed->second : info.default_value;
        const std::string name = parameter_label(info.key);
        GtkWidget* label = gtk_label_new(name.c_str());
        gtk_label_set_xalign(GTK_LABEL(label), 0);
        // The key stays in sight for those who run the same test with busctl or diskbenchctl.
        const std::string tooltip
            = parameter_help(info.description) + "\n\n" + printf_text(_("Setting “%s”"), info.key.c_str());
        gtk_widget_set_tooltip_text(label, tooltip.c_str());
        GtkWidget* editor = nullptr;
        if (!info.choices.empty()) {
            row->offered = offered_values(info, value);
            std::vector<std::string> labels;
            for (const SavedValue& offered : row->offered)
                labels.push_back(choice_label(info, offered));
            std::vector<const char*> strings;
            for (const std::string& text : labels)
                strings.push_back(text.c_str());
            strings.push_back(nullptr);
            editor = gtk_drop_down_new_from_strings(strings.data());
            const auto at = std::find(row->offered.begin(), row->offered.end(), value);
            gtk_drop_down_set_selected(GTK_DROP_DOWN(editor), static_cast<guint>(at - row->offered.begin()));
            gtk_widget_set_halign(editor, GTK_ALIGN_START);
            g_signal_connect(editor, "notify::selected", G_CALLBACK(&ParameterEditor::on_choice_changed), row.get());
        } else if (info.type == "boolean") {
            editor = gtk_switch_new();
            gtk_widget_set_halign(editor, GTK_ALIGN_START);
            const auto* flag = std::get_if<bool>(&value);
            gtk_switch_set_active(GTK_SWITCH(editor), flag && *flag);
            g_signal_connect(editor, "notify::active", G_CALLBACK(&ParameterEditor::on_switch_changed), row.get());
        } else if (is_byte_parameter(info)) {
            row->size_field = true;
            editor = gtk_entry_new();
            const auto* integer = std::get_if<std::int64_t>(&value);
            const std::string text
                = size_field_text(info.key, integer && *integer > 0 ? static_cast<std::uint64_t>(*integer) : 0);
            gtk_editable_set_text(GTK_EDITABLE(editor), text.c_str());
            const std::string zero = zero_meaning(info.key);
            if (!zero.empty())
                gtk_entry_set_placeholder_text(GTK_ENTRY(editor), zero.c_str());
            gtk_editable_set_width_chars(GTK_EDITABLE(editor), 14);
            g_signal_connect(editor, "changed", G_CALLBACK(&ParameterEditor::on_entry_changed), row.get());
            // The inline error goes under the field, in the grid's next line.
            row->error_label = gtk_label_new(nullptr);
            gtk_label_set_xalign(GTK_LABEL(row->error_label), 0);
            gtk_label_set_wrap(GTK_LABEL(row->error_label), TRUE);
            gtk_label_set_max_width_chars(GTK_LABEL(row->error_label), 30);
            gtk_widget_add_css_class(row->error_label, "error");
            gtk_widget_add_css_class(row->error_label, "caption");
            gtk_widget_set_visible(row->error_label, FALSE);
        } else if (info.type == "unsigned" && as_number(info.default_value).value_or(0) > 0x1p50) {
            // Seeds use all 64 bits: a spin button (a double) would round
            // them, so they are typed. Kept as int64 like every saved value.
            row->big_number = true;
            editor = gtk_entry_new();
            const auto* integer = std::get_if<std::int64_t>(&value);
            const std::string digits = integer ? std::to_string(static_cast<std::uint64_t>(*integer)) : std::string();
            gtk_editable_set_text(GTK_EDITABLE(editor), digits.c_str());
            gtk_entry_set_input_purpose(GTK_ENTRY(editor), GTK_INPUT_PURPOSE_DIGITS);
            g_signal_connect(editor, "changed", G_CALLBACK(&ParameterEditor::on_entry_changed), row.get());
        } else if (info.type == "unsigned" || info.type == "number") {
            const bool integer = info.type == "unsigned";
            // Sizes reach 2^40 and more; doubles hold integers exactly to 2^53.
            // The daemon's range when it gives one (ListParameterRanges).
            const double minimum = info.ranged ? info.minimum : 0;
            const double maximum = info.ranged ? std::min(info.maximum, 9.0e15) : integer ? 9.0e15 : 1.0e6;
            editor = gtk_spin_button_new_with_range(minimum, maximum, integer ? 1 : 0.1);
            gtk_spin_button_set_digits(GTK_SPIN_BUTTON(editor), integer ? 0 : 2);
            gtk_spin_button_set_value(GTK_SPIN_BUTTON(editor), as_number(value).value_or(0));
            gtk_editable_set_width_chars(GTK_EDITABLE(editor), 14);
            g_signal_connect(editor, "value-changed", G_CALLBACK(&ParameterEditor::on_spin_changed), row.get());
        } else {
            editor = gtk_entry_new();
            const auto* text = std::get_if<std::string>(&value);
            gtk_editable_set_text(GTK_EDITABLE(editor), text ? text->c_str() : "");
            g_signal_connect(editor, "changed", G_CALLBACK(&ParameterEditor::on_entry_changed), row.get());
        }
        if (GTK_IS_DROP_DOWN(editor))
            name_drop_down(editor, name.c_str());
        else
            gtk_accessible_update_property(GTK_ACCESSIBLE(editor), GTK_ACCESSIBLE_PROPERTY_LABEL, name.c_str(), -1);
        // The daemon's description, with the key, as the tooltip (after the name).
        gtk_widget_set_tooltip_text(editor, tooltip.c_str());
        row->editor = editor;
        gtk_grid_attach(GTK_GRID(grid_), label, 0, line, 1, 1);
        gtk_grid_attach(GTK_GRID(grid_), editor, 1, line, 1, 1);
        ++line;
        if (row->error_label)
            gtk_grid_attach(GTK_GRID(grid_), row->error_label, 1, line++, 1, 1);
    }
    filling_ = false;
}

void ParameterEditor::read(Row& row)
{
    if (filling_)
        return;
    const ParameterInfo& info = row.info;
    SavedValue value;
    if (GTK_IS_DROP_DOWN(row.editor)) {
        const guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(row.editor));
        if (selected >= row.offered.size())
            return;
        value = row.offered[selected];
    } else if (GTK_IS_SWITCH(row.editor)) {
        value = static_cast<bool>(gtk_switch_get_active(GTK_SWITCH(row.editor)));
    } else if (GTK_IS_SPIN_BUTTON(row.editor)) {
        const double number = gtk_spin_button_get_value(GTK_SPIN_BUTTON(row.editor));
        if (info.type == "unsigned")
            value = static_cast<std::int64_t>(std::llround(number));
        else
            value = number;
    } else if (row.size_field) {
        const SizeInput input = read_size_field(info, gtk_editable_get_text(GTK_EDITABLE(row.editor)));
        gtk_label_set_text(GTK_LABEL(row.error_label), input.error.c_str());
        gtk_widget_set_visible(row.error_label, !input.error.empty());
        if (!input.value) {
            gtk_widget_add_css_class(row.editor, "error");
            if (on_changed_)
                on_changed_(); // the form's state changed, the value did not
            return; // keep the last valid value
        }
        gtk_widget_remove_css_class(row.editor, "error");
        value = *input.value;
    } else if (row.big_number) {
        guint64 number = 0;
        const bool valid = g_ascii_string_to_unsigned(gtk_editable_get_text(GTK_EDITABLE(row.editor)), 10, 0,
                                                      G_MAXUINT64, &number, nullptr);
        if (!valid) {
            gtk_widget_add_css_class(row.editor, "error");
            return; // keep the last valid value
        }
        gtk_widget_remove_css_class(row.editor, "error");
        value = static_cast<std::int64_t>(number);
    } else {
        value = std::string(gtk_editable_get_text(GTK_EDITABLE(row.editor)));
    }
    if (value == info.default_value)
        changed_.erase(info.key);
    else
        changed_[info.key] = value;
    if (on_changed_)
        on_changed_();
}

void ParameterEditor::set_value(const std::string& key, const SavedValue& value)
{
    changed_[key] = value;
    rebuild();
    if (on_changed_)
        on_changed_();
}

void ParameterEditor::reset()
{
    changed_.clear();
    rebuild();
    if (on_changed_)
        on_changed_();
}

bool ParameterEditor::focus(const std::string& key)
{
    for (const auto& row : rows_)
        if (row->info.key == key && row->editor) {
            gtk_widget_grab_focus(row->editor);
            if (GTK_IS_EDITABLE(row->editor))
                gtk_editable_select_region(GTK_EDITABLE(row->editor), 0, -1);
            return true;
        }
    return false;
}

std::string ParameterEditor::describe() const
{
    std::string form;
    for (const auto& row : rows_) {
        if (!row->editor)
            continue;
        std::string widget, text;
        if (GTK_IS_DROP_DOWN(row->editor)) {
            widget = "drop-down";
            const guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(row->editor));
            if (selected < row->offered.size())
                text = choice_label(row->info, row->offered[selected]);
        } else if (GTK_IS_SWITCH(row->editor)) {
            widget = "switch";
            text = gtk_switch_get_active(GTK_SWITCH(row->editor)) ? "true" : "false";
        } else if (GTK_IS_SPIN_BUTTON(row->editor)) {
            widget = "spin";
            text = gtk_editable_get_text(GTK_EDITABLE(row->editor));
        } else {
            widget = row->size_field ? (gtk_widget_has_css_class(row->editor, "error") ? "size-error" : "size") : "entry";
            text = gtk_editable_get_text(GTK_EDITABLE(row->editor));
        }
        form += (form.empty() ? "" : "|") + row->info.key + "=" + widget + ":" + text;
    }
    return form;
}

void ParameterEditor::on_spin_changed(GtkSpinButton*, gpointer row)
{
    auto* r = static_cast<Row*>(row);
    r->owner->read(*r);
}

void ParameterEditor::on_switch_changed(GObject*, GParamSpec*, gpointer row)
{
    auto* r = static_cast<Row*>(row);
    r->owner->read(*r);
}

void ParameterEditor::on_choice_changed(GObject*, GParamSpec*, gpointer row)
{
    auto* r = static_cast<Row*>(row);
    r->owner->read(*r);
}

void ParameterEditor::on_entry_changed(GtkEditable*, gpointer row)
{
    auto* r = static_cast<Row*>(row);
    r->owner->read(*r);
}

} // namespace diskbench::client
