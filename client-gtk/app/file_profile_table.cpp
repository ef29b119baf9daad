// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_profile_table.hpp"

#include "text/value_format.hpp"

#include <glib/gi18n-lib.h>

namespace diskbench::client {

namespace {

GtkWidget* label(const std::string& text, const char* css_class, float xalign = 1.0F)
{
    GtkWidget* widget = gtk_label_new(text.c_str());
    gtk_label_set_xalign(GTK_LABEL(widget), xalign);
    if (css_class)
        gtk_widget_add_css_class(widget, css_class);
    return widget;
}

std::string figure_text(const FileProfileFigures& f, ProfileUnit unit)
{
    return profile_figure_text({ f.mb_s, f.iops, f.mean_us }, unit);
}

std::string detail_text(const FileProfileFigures& f)
{
    if (!f.iops)
        return {};
    std::string text = format_value(*f.iops, Unit::Iops);
    if (f.p99_us)
        /* TRANSLATORS: under a MB/s figure: "1234 IOPS · p99 85 µs" */
        text += std::string(" · ") + _("p99") + " " + format_value(*f.p99_us, Unit::Microseconds);
    return text;
}

} // namespace

FileProfileTable::FileProfileTable()
    : grid_(Ref<GtkWidget>::take_floating(gtk_grid_new()))
{
    gtk_grid_set_column_spacing(GTK_GRID(grid_.get()), 36);
    gtk_grid_set_row_spacing(GTK_GRID(grid_.get()), 2);
    gtk_widget_set_halign(grid_.get(), GTK_ALIGN_CENTER);
}

void FileProfileTable::set(const std::vector<FileProfileRow>& rows, ProfileUnit unit)
{
    for (GtkWidget* cell : cells_)
        gtk_grid_remove(GTK_GRID(grid_.get()), cell);
    cells_.clear();
    figure_cells_.clear();
    auto attach = [&](GtkWidget* cell, int column, int row) {
        gtk_grid_attach(GTK_GRID(grid_.get()), cell, column, row, 1, 1);
        cells_.push_back(cell);
    };
    attach(label(_("Test"), "heading", 0.0F), 0, 0);
    attach(label(_("Read"), "heading"), 1, 0);
    attach(label(_("Write"), "heading"), 2, 0);
    int line = 1;
    for (const FileProfileRow& row : rows) {
        attach(label(row.test, "title-4", 0.0F), 0, line);
        int column = 1;
        for (const FileProfileFigures* f : { &row.read, &row.write }) {
            GtkWidget* figure = label(figure_text(*f, unit), "title-2");
            attach(figure, column, line);
            figure_cells_.push_back(figure);
            GtkWidget* detail = label(detail_text(*f), "dim-label");
            gtk_widget_add_css_class(detail, "caption");
            attach(detail, column, line + 1);
            ++column;
        }
        line += 2;
    }
}

std::vector<std::string> FileProfileTable::cell_texts() const
{
    std::vector<std::string> texts;
    for (GtkWidget* cell : figure_cells_)
        texts.emplace_back(gtk_label_get_text(GTK_LABEL(cell)));
    return texts;
}

} // namespace diskbench::client
