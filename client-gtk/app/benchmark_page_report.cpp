// SPDX-License-Identifier: GPL-3.0-or-later
// The folder Profiles page's own header controls (file-profile): the test
// file's size as a drop-down, the passes when the daemon offers them, and
// "Copy as text" for forum posts.
#include "benchmark_page_view.hpp"
#include "icon_button.hpp"

#include "../model/file_profile_report.hpp"
#include "results/result_report.hpp"
#include "../model/parameter_choices.hpp"
#include "types/saved_values.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

#include <fmt/format.h>

namespace diskbench::client {

void BenchmarkPageView::build_file_profile_controls(GtkWidget* header)
{
    GtkWidget* size_box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    gtk_widget_set_valign(size_box, GTK_ALIGN_CENTER);
    /* TRANSLATORS: before the test file size drop-down ("Test file 1 GiB") */
    GtkWidget* size_label = gtk_label_new(_("Test file"));
    gtk_widget_add_css_class(size_label, "dim-label");
    size_choice_ = gtk_drop_down_new_from_strings(nullptr);
    name_drop_down(size_choice_, _("Size of the test file written before the tests"));
    g_signal_connect(size_choice_, "notify::selected", G_CALLBACK(+[](GObject* drop, GParamSpec*, gpointer self) {
                         auto* page = static_cast<BenchmarkPageView*>(self);
                         const guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(drop));
                         if (selected < page->size_values_.size())
                             page->settings_.set_value("file_size", page->size_values_[selected]);
                     }),
                     this);
    gtk_box_append(GTK_BOX(size_box), size_label);
    gtk_box_append(GTK_BOX(size_box), size_choice_);
    gtk_box_append(GTK_BOX(header), size_box);

    passes_label_ = gtk_label_new(nullptr);
    gtk_widget_add_css_class(passes_label_, "dim-label");
    gtk_widget_set_valign(passes_label_, GTK_ALIGN_CENTER);
    gtk_widget_set_visible(passes_label_, FALSE);
    gtk_box_append(GTK_BOX(header), passes_label_);

    GtkWidget* copy = gtk_button_new_from_icon_name("edit-copy-symbolic");
    name_icon_button(copy, _("Copy as text (Ctrl+C)"));
    gtk_widget_set_valign(copy, GTK_ALIGN_CENTER);
    g_signal_connect_swapped(copy, "clicked", G_CALLBACK(+[](BenchmarkPageView* page) { page->copy_report(); }), this);
    gtk_box_append(GTK_BOX(header), copy);
    update_file_profile_controls();
}

GtkWidget* BenchmarkPageView::build_unit_choice()
{
    std::vector<const char*> labels;
    for (const ProfileUnit unit : all_profile_units)
        labels.push_back(_(profile_unit_label(unit)));
    labels.push_back(nullptr);
    unit_choice_ = gtk_drop_down_new_from_strings(labels.data());
    gtk_widget_set_valign(unit_choice_, GTK_ALIGN_CENTER);
    name_drop_down(unit_choice_, _("Unit of the large figures"));
    g_signal_connect(unit_choice_, "notify::selected", G_CALLBACK(&BenchmarkPageView::on_unit_chosen), this);
    return unit_choice_;
}

void BenchmarkPageView::on_unit_chosen(GObject* drop_down, GParamSpec*, gpointer self)
{
    auto* page = static_cast<BenchmarkPageView*>(self);
    const guint selected = gtk_drop_down_get_selected(GTK_DROP_DOWN(drop_down));
    if (selected >= all_profile_units.size())
        return;
    page->chart_.set_profile_unit(all_profile_units[selected]);
    page->rebuild_chart();
    page->host_.page_changed(); // the app's profile-grid state follows
}

bool BenchmarkPageView::set_profile_unit(ProfileUnit unit)
{
    if (!unit_choice_)
        return false;
    const auto at = std::find(all_profile_units.begin(), all_profile_units.end(), unit);
    gtk_drop_down_set_selected(GTK_DROP_DOWN(unit_choice_), static_cast<guint>(at - all_profile_units.begin()));
    return true;
}

void BenchmarkPageView::update_file_profile_controls()
{
    if (!size_choice_)
        return;
    DaemonClient* client = host_.client();
    const BenchmarkInfo* info = client ? client->benchmark(page_.kind) : nullptr;
    if (!info)
        return;
    const SavedValueMap parameters = effective_parameters();
    for (const ParameterInfo& p : info->parameters) {
        if (p.key == "file_size" && !p.choices.empty()) {
            const SavedValue current = parameters.count("file_size") ? parameters.at("file_size") : p.default_value;
            size_values_.clear();
            const std::vector<SavedValue> offered = offered_values(p, current);
            std::vector<std::string> labels;
            for (const SavedValue& value : offered)
                labels.push_back(choice_label(p, value));
            GtkStringList* list = gtk_string_list_new(nullptr);
            for (const std::string& text : labels)
                gtk_string_list_append(list, text.c_str());
            gtk_drop_down_set_model(GTK_DROP_DOWN(size_choice_), G_LIST_MODEL(list));
            g_object_unref(list);
            const auto at = std::find(offered.begin(), offered.end(), current);
            gtk_drop_down_set_selected(GTK_DROP_DOWN(size_choice_), static_cast<guint>(at - offered.begin()));
            size_values_ = offered; // after set_selected: the handler keeps the setting as it is
        }
        if (p.key == "passes") {
            /* TRANSLATORS: in the folder Profiles header: how often each test runs, e.g. "Passes: 3" */
            const std::string text = fmt::format(fmt::runtime(_("Passes: {}")), integer_of(parameters, "passes", 1));
            gtk_label_set_text(GTK_LABEL(passes_label_), text.c_str());
            gtk_widget_set_visible(passes_label_, TRUE);
        }
    }
}

bool BenchmarkPageView::copy_report()
{
    const std::optional<SavedResult> result = shown_result();
    if (!result)
        return false;
    // The result as diskbenchctl prints it (one formatter): the Profiles
    // pages in CrystalDiskMark's layout, for forums; the others with the
    // headline, named figures, what a scan found, the checks, the device.
    const std::string text = result_report(*result, [](std::string_view outside) { return std::string(outside); });
    gdk_clipboard_set_text(gtk_widget_get_clipboard(root_.get()), text.c_str());
    host_.toast(_("Copied the results as text."));
    return true;
}

std::vector<std::string> BenchmarkPageView::grid_cells() const
{
    if (chart_.file_table())
        return chart_.file_table()->cell_texts();
    return chart_.profile_grid() ? chart_.profile_grid()->cell_texts() : std::vector<std::string> {};
}

} // namespace diskbench::client
