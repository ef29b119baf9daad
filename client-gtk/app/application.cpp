// SPDX-License-Identifier: GPL-3.0-or-later
#include "application.hpp"

#include "../model/profile_units.hpp"

#include <glib/gi18n-lib.h>

#include <exception>

namespace diskbench::client {

Application::Application()
    : app_(Ref<AdwApplication>::adopt(adw_application_new("org.diskbench.DiskBench", G_APPLICATION_DEFAULT_FLAGS)))
{
    g_signal_connect(app_.get(), "activate", G_CALLBACK(&Application::on_activate), this);
    g_signal_connect(app_.get(), "shutdown", G_CALLBACK(&Application::on_shutdown), this);
    add_actions();
}

Application::~Application()
{
    window_.reset();
    client_.reset();
}

int Application::run(int argc, char** argv)
{
    return g_application_run(G_APPLICATION(app_.get()), argc, argv);
}

void Application::on_activate(GApplication*, gpointer self)
{
    auto* app = static_cast<Application*>(self);
    if (app->window_) {
        gtk_window_present(app->window_->window());
        return;
    }
    std::string problem;
    try {
        app->client_ = std::make_unique<DaemonClient>();
    } catch (const std::exception& error) {
        problem = std::string(_("Cannot reach the system bus:")) + " " + error.what();
        g_warning("%s", problem.c_str());
    }
    app->recent_ = std::make_unique<RecentResults>();
    app->window_ = std::make_unique<Window>(app->app_.get(), app->client_.get(), *app->recent_, problem);
    app->window_->set_status_listener([app] { app->update_status(); });
    gtk_window_present(app->window_->window());
    app->update_status();
}

void Application::on_shutdown(GApplication*, gpointer self)
{
    auto* app = static_cast<Application*>(self);
    // Widgets and proxies go while the main context still exists.
    app->window_.reset();
    app->client_.reset();
}

GSimpleAction* Application::add_state_action(const char* name, const char* initial)
{
    GSimpleAction* action = g_simple_action_new_stateful(name, nullptr, g_variant_new_string(initial));
    g_signal_connect(action, "activate", G_CALLBACK(+[](GSimpleAction*, GVariant*, gpointer) {}), nullptr);
    g_action_map_add_action(G_ACTION_MAP(app_.get()), G_ACTION(action));
    // The map holds it from here; the pointer stays valid as long as the app.
    g_object_unref(action);
    return action;
}

void Application::update_status()
{
    if (!window_)
        return;
    g_simple_action_set_state(status_action_, g_variant_new_string(window_->status().c_str()));
    g_simple_action_set_state(set_status_action_, g_variant_new_string(window_->set_status().c_str()));
    std::string cells;
    if (BenchmarkPageView* page = window_->shown_page())
        for (const std::string& cell : page->grid_cells())
            cells += (cells.empty() ? "" : "|") + cell;
    g_simple_action_set_state(grid_action_, g_variant_new_string(cells.c_str()));
    const BenchmarkPageView* shown = window_->shown_page();
    const std::string form = shown ? shown->settings_form() : std::string();
    g_simple_action_set_state(form_action_, g_variant_new_string(form.c_str()));
    g_simple_action_set_state(messages_action_,
                              g_variant_new_string(shown ? shown->message_text().c_str() : ""));
    g_simple_action_set_state(fault_map_action_, g_variant_new_string(shown ? shown->fault_map().c_str() : ""));
    g_simple_action_set_state(checks_action_, g_variant_new_string(shown ? shown->checks_card_text().c_str() : ""));
    g_simple_action_set_state(steady_action_, g_variant_new_string(shown ? shown->steady_state_line().c_str() : ""));
    g_simple_action_set_state(health_action_, g_variant_new_string(window_->health_text().c_str()));
    if (shortcuts_)
        shortcuts_->update();
}

void Application::choose_file(GtkFileChooserAction action, const char* title, const char* accept,
                              const char* suggested_name, std::function<void(const std::string&)> chosen)
{
    if (!window_)
        return;
    chooser_ = Ref<GtkFileChooserNative>::adopt(
        gtk_file_chooser_native_new(title, window_->window(), action, accept, _("_Cancel")));
    gtk_native_dialog_set_modal(GTK_NATIVE_DIALOG(chooser_.get()), TRUE);
    if (suggested_name)
        gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(chooser_.get()), suggested_name);
    if (action == GTK_FILE_CHOOSER_ACTION_OPEN) {
        GtkFileFilter* results = gtk_file_filter_new();
        gtk_file_filter_set_name(results, _("Disk Benchmark results"));
        gtk_file_filter_add_pattern(results, "*.json");
        gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(chooser_.get()), results);
        g_object_unref(results);
    }
    chosen_ = std::move(chosen);
    g_signal_connect(chooser_.get(), "response", G_CALLBACK(+[](GtkNativeDialog* dialog, int response, gpointer self) {
                         auto* app = static_cast<Application*>(self);
                         if (response == GTK_RESPONSE_ACCEPT) {
                             GFile* file = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(dialog));
                             if (file) {
                                 gchar* path = g_file_get_path(file);
                                 if (path && app->chosen_)
                                     app->chosen_(path);
                                 g_free(path);
                                 g_object_unref(file);
                             }
                         }
                     }),
                     this);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(chooser_.get()));
}

namespace {

std::string string_parameter(GVariant* parameter)
{
    return parameter ? g_variant_get_string(parameter, nullptr) : std::string();
}

} // namespace

void Application::add_actions()
{
    // The app pointer is stable for the program's life (main() owns it).
    struct Handler {
        const char* name;
        const char* type;
        void (*run)(Application&, const std::string&);
    };
    static const Handler handlers[] = {
        { "select-device", "s",
          [](Application& app, const std::string& node) {
              if (app.window_ && !app.window_->select_device_node(node))
                  app.window_->toast(_("No such device."));
          } },
        { "select-folder", "s",
          [](Application& app, const std::string& path) {
              if (app.window_)
                  app.window_->select_folder(path);
          } },
        { "select-folder-dialog", nullptr,
          [](Application& app, const std::string&) {
              app.choose_file(GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, _("Benchmark a Folder"), _("_Select"), nullptr,
                              [&app](const std::string& path) { app.window_->select_folder(path); });
          } },
        { "show-page", "s",
          [](Application& app, const std::string& kind) {
              if (app.window_) {
                  app.window_->show_page(kind);
                  app.window_->reveal_page();
              }
          } },
        // show-settings (key): opens the shown page's settings with the
        // keyboard in that parameter's field ("": none); read back through
        // "parameter-form".
        { "show-settings", "s",
          [](Application& app, const std::string& key) {
              if (BenchmarkPageView* page = app.window_ ? app.window_->shown_page() : nullptr) {
                  page->show_settings(key);
                  app.update_status();
              }
          } },
        { "run-benchmark", "s",
          [](Application& app, const std::string& kind) {
              if (app.window_)
                  app.window_->run_benchmark(kind);
          } },
        { "stop-set", nullptr,
          [](Application& app, const std::string&) {
              if (app.window_)
                  app.window_->stop_set();
          } },
        { "run-set-dialog", nullptr,
          [](Application& app, const std::string&) {
              if (app.window_)
                  app.window_->show_run_set_popover();
          } },
        { "save-result", "s",
          [](Application& app, const std::string& path) {
              if (app.window_)
                  app.window_->save_shown_result(path);
          } },
        { "open-result", "s",
          [](Application& app, const std::string& path) {
              if (app.window_)
                  app.window_->open_result_file(path, false);
          } },
        { "set-reference", "s",
          [](Application& app, const std::string& path) {
              if (!app.window_)
                  return;
              if (path.empty())
                  app.window_->clear_reference();
              else
                  app.window_->open_result_file(path, true, true);
          } },
        { "export-graph", "s",
          [](Application& app, const std::string& path) {
              if (app.window_)
                  app.window_->export_shown_graph(path);
          } },
        // The shown result's series as CSV files beside PATH (for scripts
        // and the GUI tests; the menu's dialog below asks for PATH).
        { "export-data", "s",
          [](Application& app, const std::string& path) {
              if (app.window_)
                  app.window_->export_shown_data(path);
          } },
        { "export-data-dialog", nullptr,
          [](Application& app, const std::string&) {
              app.choose_file(GTK_FILE_CHOOSER_ACTION_SAVE, _("Export the Data as CSV"), _("_Export"),
                              "diskbench-data.csv",
                              [&app](const std::string& path) { app.window_->export_shown_data(path); });
          } },
        { "open-result-dialog", nullptr,
          [](Application& app, const std::string&) {
              app.choose_file(GTK_FILE_CHOOSER_ACTION_OPEN, _("Open a Result"), _("_Open"), nullptr,
                              [&app](const std::string& path) { app.window_->open_result_file(path, false); });
          } },
        { "open-reference-dialog", nullptr,
          [](Application& app, const std::string&) {
              app.choose_file(GTK_FILE_CHOOSER_ACTION_OPEN, _("Compare with a Result"), _("_Open"), nullptr,
                              [&app](const std::string& path) { app.window_->open_result_file(path, true, true); });
          } },
        { "save-result-dialog", nullptr,
          [](Application& app, const std::string&) {
              app.choose_file(GTK_FILE_CHOOSER_ACTION_SAVE, _("Save the Result"), _("_Save"), "diskbench-result.json",
                              [&app](const std::string& path) { app.window_->save_shown_result(path); });
          } },
        { "export-graph-dialog", nullptr,
          [](Application& app, const std::string&) {
              app.choose_file(GTK_FILE_CHOOSER_ACTION_SAVE, _("Export the Graph"), _("_Export"), "diskbench-graph.png",
                              [&app](const std::string& path) { app.window_->export_shown_graph(path); });
          } },
        { "copy-report", nullptr,
          [](Application& app, const std::string&) {
              if (!app.window_)
                  return;
              // Ctrl+C in a text field or selectable label copies its
              // selection, as everywhere else.
              GtkWidget* focus = gtk_root_get_focus(GTK_ROOT(app.window_->window()));
              if (focus && (GTK_IS_TEXT(focus) || GTK_IS_TEXT_VIEW(focus) || GTK_IS_LABEL(focus))) {
                  g_signal_emit_by_name(focus, "copy-clipboard");
                  return;
              }
              if (BenchmarkPageView* page = app.window_->shown_page())
                  page->copy_report();
          } },
        { "about", nullptr,
          [](Application& app, const std::string&) {
              if (!app.window_)
                  return;
              GtkWidget* about = adw_about_window_new();
              gtk_window_set_transient_for(GTK_WINDOW(about), app.window_->window());
              adw_about_window_set_application_name(ADW_ABOUT_WINDOW(about), _("Disk Benchmark"));
              adw_about_window_set_application_icon(ADW_ABOUT_WINDOW(about), "org.diskbench.DiskBench");
              adw_about_window_set_version(ADW_ABOUT_WINDOW(about), DISKBENCH_VERSION);
              adw_about_window_set_developer_name(ADW_ABOUT_WINDOW(about), _("The diskbench developers"));
              adw_about_window_set_license_type(ADW_ABOUT_WINDOW(about), GTK_LICENSE_GPL_3_0);
              adw_about_window_set_comments(ADW_ABOUT_WINDOW(about),
                                            _("Measure how fast your disks read, without sudo."));
              gtk_window_present(GTK_WINDOW(about));
          } },
        { "quit", nullptr,
          [](Application& app, const std::string&) { g_application_quit(G_APPLICATION(app.app_.get())); } },
    };
    for (const Handler& handler : handlers) {
        GSimpleAction* action = g_simple_action_new(handler.name, handler.type ? G_VARIANT_TYPE(handler.type) : nullptr);
        g_object_set_data(G_OBJECT(action), "diskbench-handler", const_cast<Handler*>(&handler));
        g_signal_connect(action, "activate", G_CALLBACK(+[](GSimpleAction* action, GVariant* parameter, gpointer self) {
                             const auto* handler
                                 = static_cast<const Handler*>(g_object_get_data(G_OBJECT(action), "diskbench-handler"));
                             handler->run(*static_cast<Application*>(self), string_parameter(parameter));
                         }),
                         this);
        g_action_map_add_action(G_ACTION_MAP(app_.get()), G_ACTION(action));
        g_object_unref(action);
    }
    // profile-unit (name): the Profiles grids' unit menu on the shown page,
    // "mb-s", "gb-s", "iops" or "us" (profile_units.hpp).
    GSimpleAction* profile_unit = g_simple_action_new("profile-unit", G_VARIANT_TYPE_STRING);
    g_signal_connect(profile_unit, "activate", G_CALLBACK(+[](GSimpleAction*, GVariant* parameter, gpointer self) {
                         auto* app = static_cast<Application*>(self);
                         BenchmarkPageView* page = app->window_ ? app->window_->shown_page() : nullptr;
                         const std::optional<ProfileUnit> unit
                             = profile_unit_from_name(g_variant_get_string(parameter, nullptr));
                         if (app->window_ && (!page || !unit || !page->set_profile_unit(*unit)))
                             app->window_->toast(_("This page has no unit to choose."));
                     }),
                     this);
    g_action_map_add_action(G_ACTION_MAP(app_.get()), G_ACTION(profile_unit));
    g_object_unref(profile_unit);

    // run-set (name, seconds): a set on the selected device, NAME as
    // diskbenchctl run-set takes it ("quick", "full-read", "custom",
    // "seek,random"), SECONDS the rest between runs; stop-set (in the
    // table above) stops it; "set-status" says how it goes
    // (RunSetRunner::status()).
    GSimpleAction* run_set = g_simple_action_new("run-set", G_VARIANT_TYPE("(su)"));
    g_signal_connect(run_set, "activate", G_CALLBACK(+[](GSimpleAction*, GVariant* parameter, gpointer self) {
                         auto* app = static_cast<Application*>(self);
                         const gchar* name = nullptr;
                         guint32 pause = 0;
                         g_variant_get(parameter, "(&su)", &name, &pause);
                         if (app->window_)
                             app->window_->run_set(name, pause);
                     }),
                     this);
    g_action_map_add_action(G_ACTION_MAP(app_.get()), G_ACTION(run_set));
    g_object_unref(run_set);

    // set-parameter (key, value): a setting of the shown page's next run.
    GSimpleAction* set_parameter = g_simple_action_new("set-parameter", G_VARIANT_TYPE("(sv)"));
    g_signal_connect(set_parameter, "activate", G_CALLBACK(+[](GSimpleAction*, GVariant* parameter, gpointer self) {
                         auto* app = static_cast<Application*>(self);
                         BenchmarkPageView* page = app->window_ ? app->window_->shown_page() : nullptr;
                         if (!page)
                             return;
                         const gchar* key = nullptr;
                         GVariant* boxed = nullptr;
                         g_variant_get(parameter, "(&sv)", &key, &boxed);
                         std::optional<SavedValue> value;
                         if (g_variant_is_of_type(boxed, G_VARIANT_TYPE_BOOLEAN))
                             value = static_cast<bool>(g_variant_get_boolean(boxed));
                         else if (g_variant_is_of_type(boxed, G_VARIANT_TYPE_UINT64))
                             value = static_cast<std::int64_t>(g_variant_get_uint64(boxed));
                         else if (g_variant_is_of_type(boxed, G_VARIANT_TYPE_INT64))
                             value = g_variant_get_int64(boxed);
                         else if (g_variant_is_of_type(boxed, G_VARIANT_TYPE_UINT32))
                             value = static_cast<std::int64_t>(g_variant_get_uint32(boxed));
                         else if (g_variant_is_of_type(boxed, G_VARIANT_TYPE_INT32))
                             value = static_cast<std::int64_t>(g_variant_get_int32(boxed));
                         else if (g_variant_is_of_type(boxed, G_VARIANT_TYPE_DOUBLE))
                             value = g_variant_get_double(boxed);
                         else if (g_variant_is_of_type(boxed, G_VARIANT_TYPE_STRING))
                             value = std::string(g_variant_get_string(boxed, nullptr));
                         g_variant_unref(boxed);
                         if (value)
                             page->set_parameter(key, *value);
                         else
                             app->window_->toast(_("That kind of value is not a benchmark setting."));
                     }),
                     this);
    g_action_map_add_action(G_ACTION_MAP(app_.get()), G_ACTION(set_parameter));
    g_object_unref(set_parameter);

    // Read-only text states for scripts and the GUI tests: they read the
    // state; activating one does nothing.
    // "status": "kind:state:points" of the shown page.
    status_action_ = add_state_action("status", "");
    // "profile-grid": the Profiles pages' large cells, per test its Read
    // and then its Write (on a device's page only when the run wrote),
    // "|"-separated ("–" until a test has ended).
    grid_action_ = add_state_action("profile-grid", "");
    set_status_action_ = add_state_action("set-status", "idle");
    // "parameter-form": the shown page's settings form, "key=widget:text|..."
    // (ParameterEditor::describe()).
    form_action_ = add_state_action("parameter-form", "");
    // "messages": the shown page's warnings and notes as the user reads them
    // (translated), one per line.
    messages_action_ = add_state_action("messages", "");
    // "fault-map": the Surface page's error-scan card, "bad=N slow=N good=N
    // cells=N|summary line" (BenchmarkPageView::fault_map()).
    fault_map_action_ = add_state_action("fault-map", "");
    // "checks": the shown page's checks card, one "✓ ..."/"⚠ ..." line per
    // check ("" when hidden).
    checks_action_ = add_state_action("checks", "");
    // "profile-steady": the line under the device Profiles grid, the disk's
    // last steady-state test beside its fresh figure ("" when none).
    steady_action_ = add_state_action("profile-steady", "");
    // "health": the Info page's "Health (SMART)" row and warning card,
    // "summary|warning".
    health_action_ = add_state_action("health", "|");

    // The keyboard's own actions, and every accelerator (model/shortcuts)
    // but Ctrl+C, which belongs to copying (below).
    shortcuts_ = std::make_unique<ShortcutActions>(GTK_APPLICATION(app_.get()), [this] { return window_.get(); });
    // Ctrl+C copies the folder Profiles report (a focused text field its selection).
    const char* copy_accels[] = { "<Control>c", nullptr };
    gtk_application_set_accels_for_action(GTK_APPLICATION(app_.get()), "app.copy-report", copy_accels);
}

} // namespace diskbench::client
