// SPDX-License-Identifier: GPL-3.0-or-later
// The window's keyboard navigation: page by page, by number, and the
// Compare picker (app.next-page, app.go-to-page, app.compare).
#include "window.hpp"

namespace diskbench::client {

namespace {

// The names of the stack's visible pages, in the switcher's order.
std::vector<std::string> visible_page_names(GtkWidget* stack)
{
    std::vector<std::string> names;
    const Ref<GtkSelectionModel> pages = Ref<GtkSelectionModel>::adopt(adw_view_stack_get_pages(ADW_VIEW_STACK(stack)));
    const guint count = g_list_model_get_n_items(G_LIST_MODEL(pages.get()));
    for (guint i = 0; i < count; ++i) {
        const Ref<AdwViewStackPage> page
            = Ref<AdwViewStackPage>::adopt(ADW_VIEW_STACK_PAGE(g_list_model_get_item(G_LIST_MODEL(pages.get()), i)));
        const char* name = adw_view_stack_page_get_name(page.get());
        if (name && adw_view_stack_page_get_visible(page.get()))
            names.emplace_back(name);
    }
    return names;
}

} // namespace

bool Window::show_adjacent_page(int step)
{
    const std::vector<std::string> names = visible_page_names(stack_);
    const char* shown = adw_view_stack_get_visible_child_name(ADW_VIEW_STACK(stack_));
    const auto at = std::find(names.begin(), names.end(), shown ? shown : "");
    if (at == names.end())
        return false;
    // Stops at the ends, as GtkNotebook's Ctrl+Page Down does.
    const auto index = (at - names.begin()) + step;
    if (index < 0 || index >= static_cast<std::ptrdiff_t>(names.size()))
        return false;
    show_page(names[static_cast<std::size_t>(index)]);
    return true;
}

bool Window::show_page_number(int number)
{
    const std::vector<std::string> names = visible_page_names(stack_);
    if (number < 1 || number > static_cast<int>(names.size()))
        return false;
    show_page(names[static_cast<std::size_t>(number - 1)]);
    return true;
}

void Window::show_reference_picker()
{
    // Only benchmark pages compare (the button is insensitive elsewhere).
    if (gtk_widget_get_sensitive(reference_button_))
        gtk_menu_button_popup(GTK_MENU_BUTTON(reference_button_));
}

} // namespace diskbench::client
