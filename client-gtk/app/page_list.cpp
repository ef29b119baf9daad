// SPDX-License-Identifier: GPL-3.0-or-later
#include "page_list.hpp"

#include "ui_file.hpp"

#include <glib/gi18n-lib.h>

#include <algorithm>

namespace diskbench::client {

namespace {

constexpr const char* entry_key = "diskbench-page-entry";

} // namespace

PageList::PageList(std::function<void(const std::string&)> on_select, std::function<void()> on_activate)
    : on_select_(std::move(on_select))
    , on_activate_(std::move(on_activate))
{
    // Declared in client-gtk/ui/page-list.ui (the GResource); the rows,
    // their order, filter and headings are the pages', set here.
    const UiFile ui("page-list.ui");
    root_ = Ref<GtkWidget>::add(ui.widget("root"));
    list_ = ui.widget("list");
    gtk_list_box_set_sort_func(GTK_LIST_BOX(list_), &PageList::sort_rows, nullptr, nullptr);
    gtk_list_box_set_filter_func(GTK_LIST_BOX(list_), &PageList::filter_row, nullptr, nullptr);
    gtk_list_box_set_header_func(GTK_LIST_BOX(list_), &PageList::update_header, nullptr, nullptr);
    g_signal_connect(list_, "row-selected", G_CALLBACK(&PageList::on_row_selected), this);
    g_signal_connect(list_, "row-activated", G_CALLBACK(&PageList::on_row_activated), this);
}

PageList::~PageList()
{
    g_signal_handlers_disconnect_by_data(list_, this);
    // The list box outlives the entries its functions read (it goes with
    // root_, and removes its rows one by one then, asking for headers):
    // nothing may call them any more. Headers first: dropping the filter
    // refreshes them.
    gtk_list_box_set_header_func(GTK_LIST_BOX(list_), nullptr, nullptr, nullptr);
    gtk_list_box_set_filter_func(GTK_LIST_BOX(list_), nullptr, nullptr, nullptr);
    gtk_list_box_set_sort_func(GTK_LIST_BOX(list_), nullptr, nullptr, nullptr);
}

const PageList::Entry* PageList::entry_of(GtkListBoxRow* row)
{
    return row ? static_cast<const Entry*>(g_object_get_data(G_OBJECT(row), entry_key)) : nullptr;
}

int PageList::sort_rows(GtkListBoxRow* a, GtkListBoxRow* b, gpointer)
{
    const auto order = entry_of(a)->order <=> entry_of(b)->order;
    return order < 0 ? -1 : order > 0 ? 1 : 0;
}

gboolean PageList::filter_row(GtkListBoxRow* row, gpointer)
{
    const Entry* entry = entry_of(row);
    return entry && entry->visible;
}

void PageList::update_header(GtkListBoxRow* row, GtkListBoxRow* before, gpointer)
{
    // GtkListBox passes the previous *shown* row: a group whose first
    // pages are hidden (a folder selected) still gets its heading.
    const PageGroup group = entry_of(row)->order.group;
    if (before && entry_of(before)->order.group == group) {
        gtk_list_box_row_set_header(row, nullptr);
        return;
    }
    GtkWidget* current = gtk_list_box_row_get_header(row);
    const char* title = _(page_group_title(group));
    if (current && g_strcmp0(gtk_label_get_text(GTK_LABEL(current)), title) == 0)
        return;
    GtkWidget* heading = gtk_label_new(title);
    gtk_widget_add_css_class(heading, "heading");
    gtk_widget_add_css_class(heading, "dim-label");
    gtk_label_set_xalign(GTK_LABEL(heading), 0);
    gtk_widget_set_margin_start(heading, 12);
    gtk_widget_set_margin_top(heading, before ? 12 : 6);
    gtk_widget_set_margin_bottom(heading, 3);
    gtk_list_box_row_set_header(row, heading);
}

void PageList::add(const std::string& name, const std::string& title, const std::string& icon, PageOrder order)
{
    auto entry = std::make_unique<Entry>(Entry { name, order, true, gtk_list_box_row_new() });
    GtkWidget* box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 10);
    gtk_box_append(GTK_BOX(box), gtk_image_new_from_icon_name(icon.c_str()));
    GtkWidget* label = gtk_label_new(title.c_str());
    gtk_label_set_xalign(GTK_LABEL(label), 0);
    gtk_label_set_ellipsize(GTK_LABEL(label), PANGO_ELLIPSIZE_END);
    gtk_box_append(GTK_BOX(box), label);
    gtk_list_box_row_set_child(GTK_LIST_BOX_ROW(entry->row), box);
    // What Orca says for the row: its title (the icon is decoration).
    gtk_accessible_update_property(GTK_ACCESSIBLE(entry->row), GTK_ACCESSIBLE_PROPERTY_LABEL, title.c_str(), -1);
    g_object_set_data(G_OBJECT(entry->row), entry_key, entry.get());
    gtk_list_box_append(GTK_LIST_BOX(list_), entry->row);
    entries_.push_back(std::move(entry));
}

PageList::Entry* PageList::find(const std::string& name)
{
    const auto at = std::find_if(entries_.begin(), entries_.end(), [&name](const auto& e) { return e->name == name; });
    return at == entries_.end() ? nullptr : at->get();
}

void PageList::set_visible(const std::string& name, bool visible)
{
    Entry* entry = find(name);
    if (!entry || entry->visible == visible)
        return;
    entry->visible = visible;
    gtk_list_box_invalidate_filter(GTK_LIST_BOX(list_));
    gtk_list_box_invalidate_headers(GTK_LIST_BOX(list_));
}

void PageList::select(const std::string& name)
{
    Entry* entry = find(name);
    following_ = true;
    if (entry)
        gtk_list_box_select_row(GTK_LIST_BOX(list_), GTK_LIST_BOX_ROW(entry->row));
    else
        gtk_list_box_unselect_all(GTK_LIST_BOX(list_));
    following_ = false;
}

std::vector<std::string> PageList::visible_names() const
{
    std::vector<const Entry*> shown;
    for (const auto& entry : entries_)
        if (entry->visible)
            shown.push_back(entry.get());
    std::stable_sort(shown.begin(), shown.end(), [](const Entry* a, const Entry* b) { return a->order < b->order; });
    std::vector<std::string> names;
    for (const Entry* entry : shown)
        names.push_back(entry->name);
    return names;
}

void PageList::focus_selected()
{
    if (GtkListBoxRow* row = gtk_list_box_get_selected_row(GTK_LIST_BOX(list_)))
        gtk_widget_grab_focus(GTK_WIDGET(row));
}

void PageList::on_row_selected(GtkListBox*, GtkListBoxRow* row, gpointer self)
{
    auto* list = static_cast<PageList*>(self);
    if (const Entry* entry = entry_of(row); entry && !list->following_)
        list->on_select_(entry->name);
}

void PageList::on_row_activated(GtkListBox*, GtkListBoxRow*, gpointer self)
{
    static_cast<PageList*>(self)->on_activate_();
}

} // namespace diskbench::client
