// SPDX-License-Identifier: GPL-3.0-or-later
#include "profile_grid.hpp"

#include "text/value_format.hpp"
#include "../model/pass_spread.hpp"
#include "text/printf_text.hpp"
#include "types/saved_values.hpp"
#include "contract/kinds/common_keys.hpp"
#include "contract/kinds/test_keys.hpp"

#include <glib/gi18n-lib.h>

#include <iterator>
#include <optional>

namespace diskbench::client {

namespace common_keys = contract::kinds::keys::common;
namespace per_test_keys = contract::kinds::keys::per_test;

namespace {

GtkWidget* label(const std::string& text, const char* css_class, float xalign = 1.0F)
{
    GtkWidget* widget = gtk_label_new(text.c_str());
    gtk_label_set_xalign(GTK_LABEL(widget), xalign);
    if (css_class)
        gtk_widget_add_css_class(widget, css_class);
    return widget;
}

// The test's mean latency (of its writes: `direction` "write_"), from the
// summary (it comes with the run's end).
std::optional<double> summary_mean_us(const SavedValueMap& summary, const std::string& test,
                                      std::string_view direction = "")
{
    const std::string test_prefix = per_test_keys::test_prefix(profile_summary_key(test)) + std::string(direction);
    const auto found = summary.find(common_keys::latency_key(test_prefix, common_keys::latency_mean_us));
    return found == summary.end() ? std::nullopt : as_number(found->second);
}

bool has_points(const std::vector<SavedSeries>& series, std::string_view name)
{
    for (const SavedSeries& s : series)
        if (s.name == name && !s.points.empty())
            return true;
    return false;
}

struct Column {
    const char* series;
    Unit unit;
    const char* css_class;
};

} // namespace

ProfileGrid::ProfileGrid()
    : grid_(Ref<GtkWidget>::take_floating(gtk_grid_new()))
{
    gtk_grid_set_column_spacing(GTK_GRID(grid_.get()), 24);
    gtk_grid_set_row_spacing(GTK_GRID(grid_.get()), 6);
    gtk_widget_set_halign(grid_.get(), GTK_ALIGN_CENTER);
}

void ProfileGrid::set(const std::vector<std::string>& tests, const std::vector<SavedSeries>& current,
                      const SavedValueMap& summary, const std::vector<SavedSeries>* reference, ProfileUnit unit)
{
    for (GtkWidget* cell : cells_)
        gtk_grid_remove(GTK_GRID(grid_.get()), cell);
    cells_.clear();
    figure_cells_.clear();
    auto attach = [&](GtkWidget* cell, int column, int row) {
        gtk_grid_attach(GTK_GRID(grid_.get()), cell, column, row, 1, 1);
        cells_.push_back(cell);
    };
    const Column columns[] = {
        { "throughput", Unit::MegabytesPerSecond, "title-2" },
        { "iops", Unit::Iops, nullptr },
        { "latency_p50", Unit::Microseconds, nullptr },
        { "latency_p99", Unit::Microseconds, nullptr },
        { "latency_p99_9", Unit::Microseconds, nullptr },
    };
    const char* headings[] = { N_("Read"), N_("Throughput"), N_("IOPS"), N_("Latency p50"), N_("Latency p99"),
                               N_("Latency p99.9") };
    // The write column (profile write=true), CrystalDiskMark's right half:
    // the writes' figure in the chosen unit, then their IOPS.
    const bool writes = has_points(current, "write_throughput");
    // The large column shows the chosen unit; its heading says which.
    const std::string first_heading = unit == ProfileUnit::MegabytesPerSecond ? _(headings[1])
                                                                               : _(profile_unit_label(unit));
    constexpr int figures = static_cast<int>(std::size(columns));
    // With the write column, Write comes right after the read figure, as
    // CrystalDiskMark's Read and Write halves (the unit menu turns both to
    // IOPS or µs); the columns after them are the reads'.
    const auto column_of = [writes](int c) { return c + 1 + (writes && c > 0 ? 1 : 0); };
    for (int c = 0; c <= figures; ++c)
        attach(label(writes && c == 0 ? _("Test") : writes && c == 1 ? _("Read")
                         : c == 1 ? first_heading : _(headings[c]),
                     "heading", c == 0 ? 0.0F : 1.0F),
               c == 0 ? 0 : column_of(c - 1), 0);
    if (writes) {
        /* TRANSLATORS: Profiles grid heading: the write column's figure (in the unit chosen), as CrystalDiskMark's Write */
        attach(label(_("Write"), "heading"), 2, 0);
    }
    int row = 1;
    for (std::size_t test = 0; test < tests.size(); ++test, row += reference ? 2 : 1) {
        GtkWidget* name = label(tests[test], "title-4", 0.0F);
        attach(name, 0, row);
        for (int c = 0; c < figures; ++c) {
            const auto value = point_at_test(current, columns[c].series, test);
            GtkWidget* cell = label(value ? format_value(*value, columns[c].unit) : "–", columns[c].css_class);
            if (c == 0 && unit != ProfileUnit::MegabytesPerSecond)
                gtk_label_set_text(GTK_LABEL(cell),
                                   profile_figure_text({ value, point_at_test(current, "iops", test),
                                                         summary_mean_us(summary, tests[test]) },
                                                       unit)
                                       .c_str());
            // The daemon's figures when it published them; while a run is
            // still going (they come with its end), from the passes so far.
            if (c == 0)
                figure_cells_.push_back(cell);
            std::optional<PassSpread> spread = summary_pass_spread(summary, tests[test], columns[c].series);
            if (!spread)
                spread = pass_spread(current, columns[c].series, test);
            if (spread) {
                // The median over passes, and under it how far the passes spread.
                GtkWidget* box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
                gtk_box_append(GTK_BOX(box), cell);
                // Short, so four columns still fit beside the sidebar; the
                // range is in the tooltip.
                /* TRANSLATORS: coefficient of variation of a figure over a benchmark's passes, e.g. "CV 39 %" */
                GtkWidget* range = label(printf_text(_("CV %.0f %%"), spread->cv_percent), "dim-label");
                /* TRANSLATORS: lowest and highest value of a figure over a benchmark's passes, e.g.
                   "1232 MB/s – 2697 MB/s over 5 passes" */
                gtk_widget_set_tooltip_text(range, printf_text(_("%s – %s over %d passes"),
                                                               format_value(spread->minimum, columns[c].unit).c_str(),
                                                               format_value(spread->maximum, columns[c].unit).c_str(),
                                                               static_cast<int>(spread->passes)).c_str());
                gtk_widget_add_css_class(range, "caption");
                gtk_box_append(GTK_BOX(box), range);
                cell = box;
            }
            attach(cell, column_of(c), row);
            if (reference) {
                const auto old = point_at_test(*reference, columns[c].series, test);
                GtkWidget* small = label(old ? format_value(*old, columns[c].unit) : "–", "dim-label");
                gtk_widget_add_css_class(small, "caption");
                attach(small, column_of(c), row + 1);
            }
        }
        if (writes) {
            const auto mb_s = point_at_test(current, "write_throughput", test);
            const auto iops = point_at_test(current, "write_iops", test);
            const std::string figure
                = profile_figure_text({ mb_s, iops, summary_mean_us(summary, tests[test], "write_") }, unit);
            const std::string shown = unit == ProfileUnit::MegabytesPerSecond && mb_s
                ? format_value(*mb_s, Unit::MegabytesPerSecond)
                : figure;
            GtkWidget* write_cell = label(mb_s ? shown : "–", "title-2");
            figure_cells_.push_back(write_cell);
            attach(write_cell, 2, row);
        }
        if (reference) {
            GtkWidget* caption = label(_("reference"), "dim-label", 0.0F);
            gtk_widget_add_css_class(caption, "caption");
            attach(caption, 0, row + 1);
        }
    }
}

std::vector<std::string> ProfileGrid::cell_texts() const
{
    std::vector<std::string> texts;
    for (GtkWidget* cell : figure_cells_)
        texts.emplace_back(gtk_label_get_text(GTK_LABEL(cell)));
    return texts;
}

} // namespace diskbench::client
