// SPDX-License-Identifier: GPL-3.0-or-later
// The window's keyboard navigation: page by page, by number, and the
// Compare picker (app.next-page, app.go-to-page, app.compare).
#include "window.hpp"

namespace diskbench::client {

bool Window::show_adjacent_page(int step)
{
    const std::vector<std::string> names = page_list_->visible_names();
    const char* shown = adw_view_stack_get_visible_child_name(ADW_VIEW_STACK(stack_));
    const auto at = std::find(names.begin(), names.end(), shown ? shown : "");
    if (at == names.end())
        return false;
    // Stops at the ends, as GtkNotebook's Ctrl+Page Down does.
    const auto index = (at - names.begin()) + step;
    if (index < 0 || index >= static_cast<std::ptrdiff_t>(names.size()))
        return false;
    show_page(names[static_cast<std::size_t>(index)]);
    focus_shown_page();
    return true;
}

bool Window::show_page_number(int number)
{
    const std::vector<std::string> names = page_list_->visible_names();
    if (number < 1 || number > static_cast<int>(names.size()))
        return false;
    show_page(names[static_cast<std::size_t>(number - 1)]);
    focus_shown_page();
    return true;
}

void Window::focus_shown_page()
{
    // A page reached by keyboard gets the keyboard: its primary control
    // (Start, the newest kept result), else its first focusable widget.
    reveal_page();
    if (BenchmarkPageView* page = shown_page())
        page->focus_primary();
    else if (adw_view_stack_get_visible_child(ADW_VIEW_STACK(stack_)) == history_->widget())
        history_->focus_primary();
    else if (GtkWidget* child = adw_view_stack_get_visible_child(ADW_VIEW_STACK(stack_)))
        gtk_widget_child_focus(child, GTK_DIR_TAB_FORWARD);
}

void Window::show_reference_picker()
{
    // Only benchmark pages compare (the button is insensitive elsewhere).
    if (!gtk_widget_get_sensitive(reference_button_))
        return;
    // Closed again, the focus goes back where it was (Start, a setting),
    // not to the header (see on_reference_popover_closed).
    focus_before_picker_.reset();
    if (GtkWidget* focus = gtk_root_get_focus(GTK_ROOT(window())))
        focus_before_picker_ = Ref<GtkWidget>::add(focus);
    gtk_menu_button_popup(GTK_MENU_BUTTON(reference_button_));
}

void Window::on_reference_popover_closed(GtkPopover*, gpointer self)
{
    auto* window = static_cast<Window*>(self);
    // After the popover has let go of the focus (GTK moves it to the
    // menu button on its own, also when it was opened by click: then
    // focus_before_picker_ is empty and the button keeps it).
    const Ref<GtkWidget> before = std::move(window->focus_before_picker_);
    if (before && gtk_widget_get_root(before.get()) == GTK_ROOT(window->window()) && gtk_widget_is_sensitive(before.get()))
        gtk_widget_grab_focus(before.get());
}

} // namespace diskbench::client
