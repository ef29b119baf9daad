// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "../model/history_trend.hpp"
#include "gobject_ptr.hpp"
#include "graph_area.hpp"

#include <adwaita.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace diskbench::client {

// The History page: the kept results of the selected disk or folder
// (results/device_history), newest first with their date, kind and headline
// figures; a small trend of one chosen figure over time; any two of the
// same kind opened together (the newer shown, the older as the Compare
// overlay's reference); a result deleted with the Delete button or key,
// undone from the toast.
class HistoryPage {
public:
    // `open`: shows a result file on its page (as_reference: as the overlay).
    // `changed`: the list was filled again (shown, a result deleted or
    // restored): the sidebar's saved results and the status follow.
    HistoryPage(RecentResults& recent, std::function<void(const std::string& path, bool as_reference)> open,
                std::function<void()> changed);
    ~HistoryPage();
    HistoryPage(const HistoryPage&) = delete;
    HistoryPage& operator=(const HistoryPage&) = delete;

    [[nodiscard]] GtkWidget* widget() const noexcept { return root_.get(); }
    // Whose history; `title` names it ("Samsung SSD 860 (sda)").
    void set_subject(HistorySubject subject, const std::string& title);
    // Reads the results folder again (when it changed) and lists them.
    void refresh();
    // Focus on the page's first control: the newest result, else the trend.
    void focus_primary();
    // "history:idle:N", N the results listed (for scripts and tests).
    [[nodiscard]] std::string status() const;

private:
    struct Deleted {
        std::string path, contents;
        Ref<AdwToast> toast; // its Undo; disconnected when the page goes first
    };
    // Disconnects this page's handlers from `widget` and everything below it.
    void disconnect_tree(GtkWidget* widget);
    void fill_list();
    void fill_trend_choices();
    void update_trend();
    void update_compare_button();
    void delete_result(std::size_t index);
    void compare_checked();
    static void on_row_activated(GtkListBox*, GtkListBoxRow* row, gpointer self);
    static void on_delete_clicked(GtkButton* button, gpointer self);
    static void on_check_toggled(GtkCheckButton*, gpointer self);
    static gboolean on_key(GtkEventControllerKey*, guint keyval, guint, GdkModifierType state, gpointer self);
    static void on_trend_chosen(GObject*, GParamSpec*, gpointer self);
    static void on_undo(AdwToast* toast, gpointer self);
    static void on_toast_dismissed(AdwToast* toast, gpointer self);
    static void on_map(GtkWidget*, gpointer self);

    RecentResults& recent_;
    std::function<void(const std::string&, bool)> open_;
    std::function<void()> changed_;
    HistorySubject subject_;
    Ref<GtkWidget> root_; // the toast overlay around the page
    GtkWidget* title_ = nullptr;
    GtkWidget* trend_box_ = nullptr; // the trend's heading, drop-down and chart
    GtkWidget* list_group_ = nullptr;
    GtkWidget* list_ = nullptr;
    GtkWidget* empty_ = nullptr;
    GtkWidget* content_ = nullptr;
    GtkWidget* compare_button_ = nullptr;
    GtkWidget* trend_choice_ = nullptr;
    GtkEventController* list_keys_ = nullptr; // owned by list_
    GraphArea trend_;
    std::vector<std::string> paths_;       // per row
    std::vector<GtkWidget*> checks_;       // per row
    std::vector<TrendChoice> choices_;
    std::map<guint, Deleted> deleted_;     // by toast id, until undone or dismissed
    guint next_toast_ = 1;
    bool filling_ = false;
};

} // namespace diskbench::client
