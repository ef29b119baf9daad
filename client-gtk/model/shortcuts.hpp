// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace diskbench::client {

// One action a key reaches: a detailed action name ("app.start",
// "app.go-to-page(3)") and its accelerators in gtk_accelerator_parse()
// syntax.
struct ShortcutBinding {
    std::string_view action;
    std::vector<std::string_view> accels;
};

// A row of the shortcuts window: what it does (N_() marked, translate with
// _()) and the bindings behind it. `shown` is how the shortcuts window
// writes the keys when it is not simply every binding's accelerators (a
// range like Alt+1…9).
struct Shortcut {
    const char* section; // N_() marked group title
    const char* title;   // N_() marked
    std::vector<ShortcutBinding> bindings;
    std::string_view shown = {};
};

// Every keyboard shortcut of the app, in the shortcuts window's order: the
// one place the accelerators are set from. The window itself is declared in
// client-gtk/ui/shortcuts-window.ui with the same rows (a unit test holds
// the two together).
const std::vector<Shortcut>& shortcut_table();

// The accelerators as GtkShortcutsShortcut's "accelerator" writes them:
// `shown`, else every binding's accelerators separated by spaces.
std::string shown_accelerators(const Shortcut& shortcut);


} // namespace diskbench::client
