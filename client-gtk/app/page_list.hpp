// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/page_groups.hpp"
#include "gobject_ptr.hpp"

#include <gtk/gtk.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace diskbench::client {

// The window's list of pages, the second column after the devices: one row
// per benchmark (icon and title) under the headings of page_groups.hpp,
// then History and Info. It replaced a bottom view switcher, which held 12
// pages where GNOME's guidelines put 3 to 5, and could not hold 17 or more
// at any width. A list scrolls, reads top to bottom, has room for a title
// in words, and works the same at 360 px (a column of its own) and at
// 1920 px (beside the page).
class PageList {
public:
    // `on_select`: a row was chosen (click, or the keyboard moved to it);
    // `on_activate`: a row was clicked or Enter pressed on it (the window
    // then shows the page itself when it is folded).
    PageList(std::function<void(const std::string& name)> on_select, std::function<void()> on_activate);
    ~PageList();
    PageList(const PageList&) = delete;
    PageList& operator=(const PageList&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return root_.get(); }
    void add(const std::string& name, const std::string& title, const std::string& icon, PageOrder order);
    void set_visible(const std::string& name, bool visible);
    // Follows the shown page (a shortcut, an action): selects its row
    // without calling on_select.
    void select(const std::string& name);
    // The shown rows' names, top to bottom: the order of Ctrl+Page Down
    // and Alt+1…9.
    [[nodiscard]] std::vector<std::string> visible_names() const;
    void focus_selected();

private:
    struct Entry {
        std::string name;
        PageOrder order;
        bool visible = true;
        GtkWidget* row = nullptr;
    };
    static const Entry* entry_of(GtkListBoxRow* row);
    static int sort_rows(GtkListBoxRow* a, GtkListBoxRow* b, gpointer);
    static gboolean filter_row(GtkListBoxRow* row, gpointer);
    static void update_header(GtkListBoxRow* row, GtkListBoxRow* before, gpointer);
    static void on_row_selected(GtkListBox*, GtkListBoxRow* row, gpointer self);
    static void on_row_activated(GtkListBox*, GtkListBoxRow* row, gpointer self);
    Entry* find(const std::string& name);

    // Before root_, so they go after it: the rows point at these.
    std::vector<std::unique_ptr<Entry>> entries_;
    Ref<GtkWidget> root_;
    GtkWidget* list_ = nullptr;
    bool following_ = false; // select() is moving the selection
    std::function<void(const std::string&)> on_select_;
    std::function<void()> on_activate_;
};

} // namespace diskbench::client
