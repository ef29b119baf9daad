// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "shortcut_actions.hpp"
#include "window.hpp"

#include <adwaita.h>

#include <memory>

namespace diskbench::client {

// The GtkApplication (org.diskbench.DiskBench): one window, the connection
// to the daemon, and the application actions. The actions are exported on
// the session bus by GApplication, so everything the window does can also
// be scripted (and the GUI test drives the real app that way):
//   select-device s       select a device by node, e.g. "/dev/loop0"
//   run-benchmark s       show that kind's page and start it
//   save-result s         save the shown page's result to a JSON file
//   open-result s         show a result file on its page
//   set-reference s       overlay a result file ("" removes the reference)
//   export-graph s        write the shown graph to .png, .svg or .pdf
//   set-parameter (sv)    a setting of the shown page's next run, e.g. ("count", <uint64 300>)
//   status (state s)      "KIND:STATE:POINTS" of the shown page
// and the keyboard's actions (start, stop, compare, next-page, previous-page,
// go-to-page i, shortcuts; see ShortcutActions).
class Application {
public:
    Application();
    ~Application();
    Application(const Application&) = delete;
    Application& operator=(const Application&) = delete;

    int run(int argc, char** argv);

private:
    static void on_activate(GApplication*, gpointer self);
    static void on_shutdown(GApplication*, gpointer self);
    void add_actions();
    void update_status();
    // A stateless-to-activate action with a text state NAME (read-only, for
    // scripts and the GUI tests), added to the app's action map.
    GSimpleAction* add_state_action(const char* name, const char* initial);
    void choose_file(GtkFileChooserAction action, const char* title, const char* accept, const char* suggested_name,
                     std::function<void(const std::string&)> chosen);

    Ref<AdwApplication> app_;
    std::unique_ptr<DaemonClient> client_;
    std::unique_ptr<RecentResults> recent_;
    std::unique_ptr<Window> window_;
    GSimpleAction* status_action_ = nullptr;
    std::unique_ptr<ShortcutActions> shortcuts_;
    GSimpleAction* grid_action_ = nullptr; // the folder Profiles grid's cells, for scripts
    GSimpleAction* set_status_action_ = nullptr; // RunSetRunner::status(), for scripts
    GSimpleAction* form_action_ = nullptr; // the shown page's settings form, for scripts
    GSimpleAction* messages_action_ = nullptr;
    GSimpleAction* fault_map_action_ = nullptr; // the Surface page's error-scan card
    GSimpleAction* checks_action_ = nullptr;    // the shown page's checks card
    GSimpleAction* steady_action_ = nullptr;    // the device Profiles' steady-state line
    GSimpleAction* health_action_ = nullptr;    // the Info page's SMART row and warning
    Ref<GtkFileChooserNative> chooser_;
    std::function<void(const std::string&)> chosen_;
};

} // namespace diskbench::client
