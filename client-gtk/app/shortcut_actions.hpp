// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "window.hpp"

#include <adwaita.h>

#include <functional>
#include <memory>
#include <vector>

namespace diskbench::client {

// The keyboard's actions and every accelerator of the app, from the
// model's shortcut table (model/shortcuts):
//   start, stop             the shown page's benchmark
//   compare                 the Compare picker
//   next-page, previous-page, go-to-page i
//   shortcuts               the keyboard shortcuts window
// Like the other application actions they are exported on the session bus.
class ShortcutActions {
public:
    // `window` gives the window once there is one (it comes with "activate").
    ShortcutActions(GtkApplication* app, std::function<Window*()> window);
    ShortcutActions(const ShortcutActions&) = delete;
    ShortcutActions& operator=(const ShortcutActions&) = delete;

    // Stop only takes Escape while the shown page runs, so Escape still
    // closes popovers and dialogs the rest of the time (a disabled action's
    // accelerator lets the key through).
    void update();

private:
    using Handler = std::function<void(GVariant*)>;
    GSimpleAction* add_action(const char* name, const GVariantType* type, Handler run);
    void show_shortcuts_window();

    GtkApplication* app_;
    std::function<Window*()> window_;
    std::vector<std::unique_ptr<Handler>> handlers_;
    GSimpleAction* stop_ = nullptr; // owned by the application's action map
};

} // namespace diskbench::client
