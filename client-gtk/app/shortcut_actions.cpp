// SPDX-License-Identifier: GPL-3.0-or-later
#include "shortcut_actions.hpp"

#include "../model/shortcuts.hpp"
#include "ui_file.hpp"

#include <glib/gi18n-lib.h>

#include <map>
#include <memory>

namespace diskbench::client {

ShortcutActions::ShortcutActions(GtkApplication* app, std::function<Window*()> window)
    : app_(app)
    , window_(std::move(window))
{
    const auto with_window = [this](auto body) {
        return [this, body](GVariant* parameter) {
            if (Window* window = window_())
                body(*window, parameter);
        };
    };
    add_action("start", nullptr, with_window([](Window& window, GVariant*) {
                   if (BenchmarkPageView* page = window.shown_page())
                       page->start();
               }));
    stop_ = add_action("stop", nullptr, with_window([](Window& window, GVariant*) {
                           if (BenchmarkPageView* page = window.shown_page())
                               page->stop();
                       }));
    g_simple_action_set_enabled(stop_, FALSE);
    add_action("compare", nullptr, with_window([](Window& window, GVariant*) { window.show_reference_picker(); }));
    add_action("next-page", nullptr, with_window([](Window& window, GVariant*) { window.show_adjacent_page(1); }));
    add_action("previous-page", nullptr, with_window([](Window& window, GVariant*) { window.show_adjacent_page(-1); }));
    add_action("go-to-page", G_VARIANT_TYPE_INT32, with_window([](Window& window, GVariant* parameter) {
                   window.show_page_number(g_variant_get_int32(parameter));
               }));
    add_action("shortcuts", nullptr, [this](GVariant*) { show_shortcuts_window(); });

    // Every accelerator comes from the table; an action with several rows
    // (none today) would get all their keys.
    std::map<std::string, std::vector<std::string>> accels;
    for (const Shortcut& shortcut : shortcut_table())
        for (const ShortcutBinding& binding : shortcut.bindings)
            for (const std::string_view accel : binding.accels)
                accels[std::string(binding.action)].emplace_back(accel);
    for (const auto& [action, keys] : accels) {
        std::vector<const char*> list;
        for (const std::string& key : keys)
            list.push_back(key.c_str());
        list.push_back(nullptr);
        gtk_application_set_accels_for_action(app_, action.c_str(), list.data());
    }
}

GSimpleAction* ShortcutActions::add_action(const char* name, const GVariantType* type, Handler run)
{
    GSimpleAction* action = g_simple_action_new(name, type);
    // The handler lives in handlers_, as long as the application.
    handlers_.push_back(std::make_unique<Handler>(std::move(run)));
    g_signal_connect(action, "activate", G_CALLBACK(+[](GSimpleAction*, GVariant* parameter, gpointer handler) {
                         (*static_cast<Handler*>(handler))(parameter);
                     }),
                     handlers_.back().get());
    g_action_map_add_action(G_ACTION_MAP(app_), G_ACTION(action));
    g_object_unref(action);
    return action;
}

void ShortcutActions::update()
{
    Window* window = window_();
    BenchmarkPageView* page = window ? window->shown_page() : nullptr;
    const std::string status = page ? page->status() : std::string();
    g_simple_action_set_enabled(stop_, status.find(":running:") != std::string::npos);
}

void ShortcutActions::show_shortcuts_window()
{
    Window* window = window_();
    if (!window)
        return;
    // Declared in client-gtk/ui/shortcuts-window.ui (the GResource).
    const UiFile ui("shortcuts-window.ui");
    GtkWidget* shortcuts = ui.widget("shortcuts");
    gtk_window_set_transient_for(GTK_WINDOW(shortcuts), window->window());
    // The window owns itself once presented; closing it destroys it.
    gtk_window_present(GTK_WINDOW(shortcuts));
}

} // namespace diskbench::client
